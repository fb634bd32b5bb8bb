/// The values of the `Frame` uniform block (shaders/frame.glsl), by name, as std140 lays
/// them out: 31 vec4s, 124 floats. Plain memory, apart from the GL buffer they go to
/// (``FrameBlock``); written in place so a frame allocates nothing.
struct FrameUniforms {
    /// Each vec4 of the block by its name in frame.glsl, and the float it starts at.
    enum Field: Int, CaseIterable {
        case canvas = 0, accent = 4, timing = 8, motion = 12, dial = 16, tiles = 20, rings = 24, strip = 28, safe = 32
        /// u_markers[0]; marker i is at ``FrameUniforms/setMarker(_:_:_:_:_:)``.
        case markers = 36
        case grid = 76, span0 = 80, span1 = 84, span2 = 88, image = 92
        case pacing0 = 96, pacing1 = 100, pacing2 = 104, video0 = 108, video1 = 112, ringBands = 116
        case copyArea = 120

        /// Its name in frame.glsl.
        var glslName: String { "u_\(self)" }
        /// How many vec4s it has (u_markers is an array).
        var vectors: Int { self == .markers ? FrameUniforms.maxMarkers : 1 }
    }

    static let floatCount = 124
    /// The length of u_markers.
    static let maxMarkers = 10
    private(set) var floats = [Float](repeating: 0, count: FrameUniforms.floatCount)

    /// Sets the vec4 `field` (the first of u_markers).
    mutating func set(_ field: Field, _ x: Double, _ y: Double, _ z: Double, _ w: Double) {
        set(at: field.rawValue, x, y, z, w)
    }

    /// Sets u_markers[`index`]: x, y, radius, kind.
    mutating func setMarker(_ index: Int, _ x: Double, _ y: Double, _ radius: Double, _ kind: Double) {
        precondition(index >= 0 && index < FrameUniforms.maxMarkers, "u_markers has \(FrameUniforms.maxMarkers) entries")
        set(at: Field.markers.rawValue + index * 4, x, y, radius, kind)
    }

    /// The vec4 `field`.
    subscript(field: Field) -> SIMD4<Float> {
        let i = field.rawValue
        return SIMD4(floats[i], floats[i + 1], floats[i + 2], floats[i + 3])
    }

    /// u_timing.x: scene time in seconds.
    var sceneTime: Float {
        get { floats[Field.timing.rawValue] }
        set { floats[Field.timing.rawValue] = newValue }
    }

    /// u_motion.z: how many of u_markers are in use.
    var markerCount: Int {
        get { Int(floats[Field.motion.rawValue + 2]) }
        set { floats[Field.motion.rawValue + 2] = Float(newValue) }
    }

    /// u_rings.w: whether the content view leaves its rings out (content.frag).
    var ringsLeftOut: Bool {
        get { floats[Field.rings.rawValue + 3] != 0 }
        set { floats[Field.rings.rawValue + 3] = newValue ? 1 : 0 }
    }

    private mutating func set(at index: Int, _ x: Double, _ y: Double, _ z: Double, _ w: Double) {
        floats[index] = Float(x); floats[index + 1] = Float(y)
        floats[index + 2] = Float(z); floats[index + 3] = Float(w)
    }
}
