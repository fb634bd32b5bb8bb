import Foundation
import PackagePlugin

/// Compiles the GLSL files in the package's shaders/ folder, and the control API's OpenAPI
/// document (docs/openapi.json), into the target as Swift string constants, so the built
/// binary needs no files at run time.
@main
struct EmbedShaders: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let folder = context.package.directoryURL.appending(path: "shaders")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path())
            .filter { $0.hasSuffix(".vert") || $0.hasSuffix(".frag") || $0.hasSuffix(".glsl") }
            .sorted()
        let inputs = names.map { folder.appending(path: $0) }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedShaders.swift")
        let script = context.package.directoryURL.appending(path: "scripts/embed-shaders")
        let openAPI = context.package.directoryURL.appending(path: "docs/openapi.json")
        // The script reads the folder itself, and the folder is an input: a shader added
        // after the build was planned is embedded too (its mtime changes the folder's).
        return [
            .buildCommand(
                displayName: "Embedding \(names.count) shaders",
                executable: URL(filePath: "/bin/sh"),
                arguments: [script.path(), output.path(), folder.path(), openAPI.path()],
                inputFiles: [folder] + inputs + [script, openAPI],
                outputFiles: [output]
            )
        ]
    }
}
