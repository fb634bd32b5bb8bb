import CGLES
import Foundation
import WaylandOutputs

/// The loop most multi-window programs use, kept as the benchmark's baseline: one thread
/// and one context for every output, eglSwapInterval(1) on each surface, and the surfaces
/// drawn and swapped in turn. Each swap waits for that surface's frame callback (Mesa's
/// EGL does the waiting, or, where frames go through wl_shm, the surface itself, the same
/// way), so every output runs at the pace of the slowest one. It is built from the
/// library's `FullscreenSurface`, as an application's own loop would be.
final class CoupledLoop: @unchecked Sendable {
    private struct Shared {
        var stop = false
        var failure: (any Error)?
        var logs: [UInt32: FrameLog] = [:]
    }

    private let shared = Locked(Shared())
    private let connection: Connection
    private let graphics: Graphics
    private let queue: EventQueue
    /// Made on the main thread, used and closed on the loop's thread.
    private let surfaces: [FullscreenSurface]
    /// The loop's thread, joined by ``close()``: once it returns, the thread has let go of
    /// the loop, so the surfaces and the graphics go on the thread that closes it, never on
    /// the loop's thread as the process exits.
    private var thread: JoinableThread?
    private var running = false

    /// Opens a window on each output and starts the single render thread.
    init(outputs: [Output], tracker: OutputTracker, graphics: Graphics, framePath: FullscreenSurface.Options.FramePath, appID: String,
         makeRenderer: @escaping @Sendable (RenderTarget) throws -> any OutputRenderer) throws {
        connection = tracker.connection
        self.graphics = graphics
        let queue = EventQueue(connection: tracker.connection)
        self.queue = queue
        // Where frames go through wl_shm, the surface throttles at interval 1 as Mesa does.
        let options = FullscreenSurface.Options(appID: appID, title: "\(appID) (coupled)", framePath: framePath)
        surfaces = try outputs.map { output in
            try FullscreenSurface(output: output, tracker: tracker, graphics: graphics, queue: queue, options: options)
        }
        shared.withLock { state in
            for output in outputs { state.logs[output.id] = FrameLog(capacity: nil) }
        }
        thread = try JoinableThread(name: "coupled") { [self] in
            do {
                try renderLoop(makeRenderer: makeRenderer)
            } catch {
                shared.withLock { $0.failure = error }
                connection.wakeMainQueue()
            }
            eglReleaseThread()
        }
        running = true
    }

    deinit { close() }

    /// The error that stopped the loop, if one did.
    var failure: (any Error)? { shared.withLock { $0.failure } }

    /// Every frame of the output with this registry name (commit times only: the
    /// callbacks are consumed inside eglSwapBuffers).
    func frameLog(of outputID: UInt32) -> FrameLog? { shared.withLock { $0.logs[outputID] } }

    /// Frames committed so far on the output with this registry name.
    func frames(of outputID: UInt32) -> Int { shared.withLock { $0.logs[outputID]?.samples.count ?? 0 } }

    /// Stops the loop and waits until it has released every window.
    func close() {
        guard running else { return }
        running = false
        shared.withLock { $0.stop = true }
        queue.wake()
        thread?.join()
        thread = nil
    }

    private var stopRequested: Bool { shared.withLock { $0.stop } }

    private func renderLoop(makeRenderer: (RenderTarget) throws -> any OutputRenderer) throws {
        let context = try graphics.makeContext()
        var renderers: [(any OutputRenderer)?] = []
        defer {
            // Reverse order: renderers (context current), then the surfaces.
            try? context.makeCurrentWithoutSurface()
            graphics.serialized { renderers.removeAll() }
            for surface in surfaces.reversed() { surface.close() }
        }
        for surface in surfaces {
            guard try surface.configure(until: { stopRequested }) else { return }
            try surface.makeCurrent(context)
            // The usual setting: the swap waits for this surface's frame callback.
            surface.setSwapInterval(1)
            let target = surface.target
            renderers.append(try graphics.serialized { try makeRenderer(target) })
        }
        var frames = [UInt64](repeating: 0, count: surfaces.count)
        while !stopRequested {
            queue.dispatchPending()
            for (index, surface) in surfaces.enumerated() {
                surface.update()
                try surface.makeCurrent(context)
                let start = MonotonicInstant.now, cpuBefore = threadCPUTime()
                let period = OutputMode.assumedRefreshPeriod
                let frame = DisplayLinkFrame(index: frames[index], timestamp: start, targetTimestamp: start + period,
                                             duration: period)
                let target = surface.target
                renderers[index]?.prepare(frame, in: target)
                let committed = try graphics.serialized {
                    try surface.beginFrame()
                    let drawn = surface.target
                    try renderers[index]?.render(frame, in: drawn)
                    return try surface.swapBuffers(changed: drawn.holdsPreviousFrame ? renderers[index]?.changedRegions(in: drawn) : nil)
                }
                guard committed else { continue }
                let sample = FrameSample(index: frames[index], renderStart: start, commit: .now,
                                         cpuTime: threadCPUTime() - cpuBefore)
                frames[index] += 1
                shared.withLock { $0.logs[surface.output.id]?.append(sample) }
            }
        }
    }

    /// CPU time of the calling thread (CLOCK_THREAD_CPUTIME_ID).
    private func threadCPUTime() -> Duration {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
    }
}
