import XCTest
@testable import WaylandOutputs

/// Damage and the ledger of a window's copies into its wl_shm buffers, against a model:
/// a framebuffer, three buffers and a compositor's texture as grids of pixel values.
final class DamageLedgerTests: XCTestCase {
    let size = Size(width: 40, height: 30)

    func test_rectanglesAreClippedToTheBufferAndEmptyOnesLeftOut() {
        let damage = Damage([Rect(x: -5, y: -5, width: 10, height: 10), Rect(x: 35, y: 25, width: 100, height: 100),
                             Rect(x: 50, y: 0, width: 5, height: 5), Rect(x: 3, y: 3, width: 0, height: 9),
                             Rect(x: 2, y: 2, width: -4, height: 4), Rect(x: Int32.max, y: Int32.max, width: Int32.max, height: 1)],
                            in: size)
        XCTAssertEqual(damage.rectangles, [Rect(x: 0, y: 0, width: 5, height: 5), Rect(x: 35, y: 25, width: 5, height: 5)])
        XCTAssertNil(Damage(nil, in: size).rectangles, "nil is everything")
        XCTAssertNil(Damage([Rect(x: -1, y: -1, width: 99, height: 99)], in: size).rectangles, "the whole buffer is everything")
        XCTAssertTrue(Damage([], in: size).isEmpty)
    }

    func test_aRectangleInsideAnotherAddsNothingAndOneAroundOthersReplacesThem() {
        var damage = Damage([Rect(x: 0, y: 0, width: 4, height: 4), Rect(x: 10, y: 10, width: 4, height: 4)], in: size)
        damage.formUnion(Damage([Rect(x: 1, y: 1, width: 2, height: 2)], in: size), in: size)
        XCTAssertEqual(damage.count, 2)
        damage.formUnion(Damage([Rect(x: 0, y: 0, width: 20, height: 20)], in: size), in: size)
        XCTAssertEqual(damage.rectangles, [Rect(x: 0, y: 0, width: 20, height: 20)])
        damage.formUnion(.everything, in: size)
        XCTAssertTrue(damage.isEverything)
    }

    func test_pastEightRectanglesTheirBoundingBoxStandsForThemAndCoversEveryOne() {
        let rectangles = (0..<9).map { Rect(x: Int32($0 * 4), y: Int32($0 * 3), width: 2, height: 2) }
        let damage = Damage(rectangles, in: size)
        XCTAssertEqual(damage.count, 1)
        XCTAssertEqual(damage.rectangles, [Rect(x: 0, y: 0, width: 34, height: 26)])
    }

    /// Random frames, each changing a few rectangles (now and then all of it), committed
    /// into whichever of three buffers the compositor has released, some frames finding
    /// none free: after each commit the buffer holds the framebuffer exactly, and so does
    /// a compositor that uploads only the damaged regions into its texture.
    func test_everyFilledBufferAndTheCompositorsTextureHoldTheLatestFrame() {
        final class Buffer: DamagedBuffer {
            var stale = Damage.everything
            var pixels: [Int]
            var busy = false
            init(count: Int) { pixels = [Int](repeating: -1, count: count) }
        }
        let (width, height) = (Int(size.width), Int(size.height))
        var framebuffer = [Int](repeating: 0, count: width * height)
        var texture = [Int](repeating: -2, count: width * height)
        let buffers = (0..<3).map { _ in Buffer(count: width * height) }
        var ledger = FrameLedger()
        var random = SystemRandomNumberGenerator()
        var onScreen: Buffer?
        var commits = 0
        func copy(_ region: Rect, from source: [Int], into destination: inout [Int]) {
            for y in Int(region.y)..<Int(region.maxY) {
                for x in Int(region.x)..<Int(region.maxX) { destination[y * width + x] = source[y * width + x] }
            }
        }
        for frame in 1...3000 {
            var changed: [Rect]? = []
            if frame % 97 == 0 {
                changed = nil
                framebuffer = [Int](repeating: frame, count: width * height)
            } else {
                for _ in 0..<Int.random(in: 0...12, using: &random) {
                    let x = Int32.random(in: -5...45, using: &random), y = Int32.random(in: -5...35, using: &random)
                    let rect = Rect(x: x, y: y, width: Int32.random(in: 0...15, using: &random),
                                    height: Int32.random(in: 0...15, using: &random))
                    changed?.append(rect)
                    if let drawn = Damage.clip(rect, to: size) { copy(drawn, from: [Int](repeating: frame, count: width * height), into: &framebuffer) }
                }
            }
            ledger.drawn(Damage(changed, in: size), size: size, buffers: buffers)
            // The compositor releases buffers in its own time, the one on screen last.
            for buffer in buffers where buffer !== onScreen && Bool.random(using: &random) { buffer.busy = false }
            guard let free = buffers.filter({ !$0.busy }).randomElement(using: &random) else { continue }
            ledger.fill(free, size: size, copy: { copy($0, from: framebuffer, into: &free.pixels) },
                        damage: { copy($0, from: free.pixels, into: &texture) })
            free.busy = true
            onScreen = free
            commits += 1
            XCTAssertEqual(free.pixels, framebuffer, "frame \(frame): the buffer lacks part of the frame")
            XCTAssertEqual(texture, framebuffer, "frame \(frame): the compositor was not told of a change")
            if free.pixels != framebuffer || texture != framebuffer { return }
        }
        XCTAssertGreaterThan(commits, 1000)
    }
}
