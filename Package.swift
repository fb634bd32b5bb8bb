// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "glout",
    products: [
        .library(name: "WaylandOutputs", targets: ["WaylandOutputs"]),
        // EGL and GLES for an application's renderers (the examples import it).
        .library(name: "CGLES", targets: ["CGLES"]),
        .executable(name: "glout", targets: ["glout"]),
    ],
    targets: [
        // libwayland-client, wayland-egl and the wayland-scanner glue (scripts/generate-protocols).
        .target(
            name: "CWayland",
            linkerSettings: [.linkedLibrary("wayland-client"), .linkedLibrary("wayland-egl")]
        ),
        // EGL and GLES 3 headers; the module map links libEGL and libGLESv2.
        .systemLibrary(name: "CGLES", path: "Sources/CGLES"),
        // libxkbcommon: keymaps for wl_keyboard (the library's input).
        .systemLibrary(name: "CXKBCommon", path: "Sources/CXKBCommon", pkgConfig: "xkbcommon",
                       providers: [.apt(["libxkbcommon-dev"])]),
        // FreeType (with fontconfig, which finds a show's fonts), libpng, zlib and libdeflate,
        // for glout's text, plots, snapshots, screenshots and PNG images (not the library's concern).
        .systemLibrary(name: "CFreeType", path: "Sources/CFreeType", pkgConfig: "freetype2",
                       providers: [.apt(["libfreetype-dev", "libfontconfig-dev"])]),
        .systemLibrary(name: "CPNG", path: "Sources/CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev", "zlib1g-dev", "libdeflate-dev"])]),
        // libjpeg-turbo's TurboJPEG and libwebp (with its demuxer), for --content JPEG and
        // WebP images and animated WebP.
        .systemLibrary(name: "CJPEG", path: "Sources/CJPEG", pkgConfig: "libturbojpeg", providers: [.apt(["libturbojpeg0-dev"])]),
        .systemLibrary(name: "CWebP", path: "Sources/CWebP", pkgConfig: "libwebpdemux", providers: [.apt(["libwebp-dev"])]),
        // FFmpeg's libavformat, libavcodec and libswscale, for --content videos (glout's too).
        .systemLibrary(name: "CFFmpeg", path: "Sources/CFFmpeg", pkgConfig: "libavformat",
                       providers: [.apt(["libavformat-dev", "libavcodec-dev", "libswscale-dev"])]),
        // libmicrohttpd, for glout's control API (--http).
        .systemLibrary(name: "CMicroHTTPD", path: "Sources/CMicroHTTPD", pkgConfig: "libmicrohttpd",
                       providers: [.apt(["libmicrohttpd-dev"])]),
        // liblo, for its OSC control (--osc).
        .systemLibrary(name: "CLo", path: "Sources/CLo", pkgConfig: "liblo", providers: [.apt(["liblo-dev"])]),
        // The library: outputs, their surfaces and display links. Knows nothing of glout.
        .target(name: "WaylandOutputs", dependencies: ["CWayland", "CGLES", "CXKBCommon"]),
        // The command-line program; shaders/ is compiled into it by the EmbedShaders plugin.
        .executableTarget(
            name: "glout",
            dependencies: ["WaylandOutputs", "CGLES", "CFreeType", "CPNG", "CJPEG", "CWebP", "CFFmpeg", "CMicroHTTPD", "CLo"],
            plugins: ["EmbedShaders"]
        ),
        .plugin(name: "EmbedShaders", capability: .buildTool()),
        // Two small programs on the library alone (README's example is the first).
        .executableTarget(name: "SolidColours", dependencies: ["WaylandOutputs", "CGLES"], path: "Examples/SolidColours"),
        .executableTarget(name: "OutputClock", dependencies: ["WaylandOutputs", "CGLES"], path: "Examples/OutputClock"),
        // A fault-injecting compositor on libwayland-server, for the tests only: it sends
        // wrong and extreme values on purpose (Tests/TestCompositor/README.md).
        .executableTarget(name: "TestCompositor", path: "Tests/TestCompositor", exclude: ["README.md"],
                          linkerSettings: [.linkedLibrary("wayland-server")]),
        // Protocols only the tests speak (a virtual pointer and keyboard for sway): kept
        // out of the shipped CWayland.
        .target(name: "CTestProtocols", path: "Tests/CTestProtocols", linkerSettings: [.linkedLibrary("wayland-client")]),
        .testTarget(name: "WaylandOutputsTests", dependencies: ["WaylandOutputs", "CWayland", "CXKBCommon"]),
        .testTarget(name: "gloutTests", dependencies: ["glout", "WaylandOutputs"]),
        // Runs the built glout, and the library on its own, against real compositors.
        .testTarget(name: "IntegrationTests",
                    dependencies: ["glout", "SolidColours", "OutputClock", "TestCompositor", "WaylandOutputs", "CGLES", "CWayland", "CTestProtocols",
                                   "CXKBCommon"]),
    ],
    swiftLanguageModes: [.v6]
)
