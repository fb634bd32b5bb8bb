import CGLES

/// An EGL call that failed, with the name of the eglGetError code.
public struct EGLError: Error, CustomStringConvertible {
    /// The EGL function that failed, e.g. "eglCreatePlatformWindowSurface".
    public let call: String
    /// The eglGetError code.
    public let code: EGLint

    /// Captures eglGetError for `call`.
    public init(_ call: String, code: EGLint = eglGetError()) {
        self.call = call
        self.code = code
    }

    public var name: String {
        switch code {
        case EGL_SUCCESS: "EGL_SUCCESS"
        case EGL_NOT_INITIALIZED: "EGL_NOT_INITIALIZED"
        case EGL_BAD_ACCESS: "EGL_BAD_ACCESS"
        case EGL_BAD_ALLOC: "EGL_BAD_ALLOC"
        case EGL_BAD_ATTRIBUTE: "EGL_BAD_ATTRIBUTE"
        case EGL_BAD_CONTEXT: "EGL_BAD_CONTEXT"
        case EGL_BAD_CONFIG: "EGL_BAD_CONFIG"
        case EGL_BAD_CURRENT_SURFACE: "EGL_BAD_CURRENT_SURFACE"
        case EGL_BAD_DISPLAY: "EGL_BAD_DISPLAY"
        case EGL_BAD_SURFACE: "EGL_BAD_SURFACE"
        case EGL_BAD_MATCH: "EGL_BAD_MATCH"
        case EGL_BAD_PARAMETER: "EGL_BAD_PARAMETER"
        case EGL_BAD_NATIVE_PIXMAP: "EGL_BAD_NATIVE_PIXMAP"
        case EGL_BAD_NATIVE_WINDOW: "EGL_BAD_NATIVE_WINDOW"
        case EGL_CONTEXT_LOST: "EGL_CONTEXT_LOST"
        default: "EGL error 0x\(String(code, radix: 16))"
        }
    }

    public var description: String { "\(call) failed: \(name)" }
}
