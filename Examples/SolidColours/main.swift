// A colour on every output: the smallest program on WaylandOutputs. Each output gets a
// fullscreen window when it appears, paced by its own display link, until Ctrl-C.
import CGLES
import WaylandOutputs

final class Solid: OutputRenderer {
    let colour: (Float, Float, Float)
    init(_ colour: (Float, Float, Float)) { self.colour = colour }

    func render(_ frame: DisplayLinkFrame, in target: RenderTarget) throws {
        glClearColor(colour.0, colour.1, colour.2, 1)
        glClear(GLbitfield(GL_COLOR_BUFFER_BIT))
    }
}

let palette: [(Float, Float, Float)] = [(0.85, 0.25, 0.2), (0.2, 0.5, 0.85), (0.3, 0.7, 0.35)]
let session = try OutputSession(.init(appID: "org.example.SolidColours", handlesSignals: true))
try session.start { [palette] output in Solid(palette[output.name.utf8.reduce(0) { $0 + Int($1) } % palette.count]) }
try session.run()
