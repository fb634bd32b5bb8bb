// Each output's own clock. The top row lights one of 60 cells per frame the output
// draws: it goes round once a second on a 60 Hz output and once in two seconds on a 30 Hz
// one. The bottom row lights the cell of the current sixtieth of a second, the same on
// every output. Put side by side, the rows show every output's own refresh.
//
//   OutputClock [SECONDS]     (default: until Ctrl-C; then each output's frame rate)
import CGLES
import WaylandOutputs

final class Clock: OutputRenderer {
    static let cells: Int32 = 60

    func render(_ frame: DisplayLinkFrame, in target: RenderTarget) throws {
        let size = target.pixelSize
        glDisable(GLenum(GL_SCISSOR_TEST))
        glClearColor(0.06, 0.07, 0.12, 1)
        glClear(GLbitfield(GL_COLOR_BUFFER_BIT))
        // The time this frame is for: the refresh it should reach the screen at.
        let sixtieth = Int32(frame.targetTimestamp.nanoseconds % 1_000_000_000 * 60 / 1_000_000_000)
        light(Int32(frame.index % UInt64(Clock.cells)), row: 1, in: size, colour: (0.95, 0.75, 0.2))
        light(sixtieth, row: 0, in: size, colour: (0.3, 0.8, 0.95))
    }

    /// Lights cell `cell` of row `row` (0 at the bottom, GL's y), leaving a gap around it.
    private func light(_ cell: Int32, row: Int32, in size: Size, colour: (Float, Float, Float)) {
        let width = size.width / Clock.cells, height = size.height / 2
        glEnable(GLenum(GL_SCISSOR_TEST))
        glScissor(cell * width + 1, row * height + height / 4, max(1, width - 2), height / 2)
        glClearColor(colour.0, colour.1, colour.2, 1)
        glClear(GLbitfield(GL_COLOR_BUFFER_BIT))
    }
}

let seconds = CommandLine.arguments.dropFirst().first.flatMap(Double.init)
let session = try OutputSession(.init(appID: "org.example.OutputClock", input: false, handlesSignals: true))
try session.start { _ in Clock() }
try session.run(for: seconds.map { .milliseconds(Int64($0 * 1000)) })
for summary in session.closeWindows().sorted(by: { $0.output.name < $1.output.name }) {
    let refresh = summary.output.currentMode.map { "\($0.refreshRate) Hz" } ?? "unknown refresh"
    let rate = (summary.statistics.framesPerSecond * 10).rounded() / 10
    print("\(summary.output.name): \(summary.statistics.frames) frames, \(rate) frames/s (\(refresh))")
}
