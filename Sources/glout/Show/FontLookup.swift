import CFreeType
import WaylandOutputs

/// Finds a font file by name through fontconfig, as desktop programs do: "DejaVu Sans",
/// "Noto Sans:bold", "monospace". fontconfig always offers its best match, which may be
/// another family: the caller says which file it took.
enum FontLookup {
    /// fontconfig's own state is not safe to use from two threads at once.
    private static let turn = Locked(())

    /// The file fontconfig matches `name` with, and the family it holds; nil when
    /// fontconfig has no font at all.
    static func file(for name: String) -> (path: String, family: String)? {
        turn.withLock { _ in
            guard FcInit() == FcTrue, let pattern = FcNameParse(name) else { return nil }
            defer { FcPatternDestroy(pattern) }
            FcConfigSubstitute(nil, pattern, FcMatchPattern)
            FcDefaultSubstitute(pattern)
            var result = FcResultNoMatch
            guard let match = FcFontMatch(nil, pattern, &result) else { return nil }
            defer { FcPatternDestroy(match) }
            var file: UnsafeMutablePointer<FcChar8>?
            guard FcPatternGetString(match, FC_FILE, 0, &file) == FcResultMatch, let file else { return nil }
            // Both strings belong to `match`: copied before it goes.
            let path = String(cString: UnsafeRawPointer(file).assumingMemoryBound(to: CChar.self))
            var family: UnsafeMutablePointer<FcChar8>?
            let familyName = FcPatternGetString(match, FC_FAMILY, 0, &family) == FcResultMatch && family != nil
                ? String(cString: UnsafeRawPointer(family!).assumingMemoryBound(to: CChar.self)) : path
            return (path, familyName)
        }
    }
}
