import Foundation
import WaylandOutputs

/// Turns outputs off and on as the show's `off` dayparts say (docs/shows.md). On the
/// session's thread, four times a second: works out each output's stretch of time off
/// (published in ``ShowSource`` for its render thread, which draws black within it to the
/// refresh), asks the compositor to turn the output off through wlr-output-power-management
/// where it offers that and can, says so where it cannot (the output then shows black
/// with its display link paused), and turns it on and wakes its window half a second
/// before the stretch ends, so that it draws from the first refresh at or after the end.
final class ShowPower {
    /// How long before a stretch off ends the output is turned on and woken.
    static let lead: Double = 0.5
    /// How often a stretch worked out is worked out again (the wall clock may be set).
    static let recheck: Double = 60

    private let source: ShowSource
    private let display: OutputSession
    private let log: Log
    private var timer: DispatchSourceTimer?
    private var stopped = false
    private var outputs: [String: Tracked] = [:]

    /// What is known and done of one output.
    private struct Tracked {
        var known: ShowSource.KnownOffWindow
        var workedOut: Double
        /// Within the stretch off: the output has been turned off (or shows black).
        var off = false
        /// The compositor turned it off through wlr-output-power-management.
        var powered = false
        /// Woken for the end of the stretch.
        var woken = false
    }

    /// Works out every output's stretch off now, then ticks.
    static func start(source: ShowSource, display: OutputSession, log: Log) -> ShowPower {
        let power = ShowPower(source: source, display: display, log: log)
        power.tick()
        let timer = DispatchSource.makeTimerSource(queue: .global(qos: .utility))
        let session = WeakSessionReference(power), onSession = WeakSessionReference(display)
        timer.setEventHandler { onSession.value?.onSessionThread { session.value?.tick() } }
        timer.schedule(deadline: .now() + .milliseconds(250), repeating: .milliseconds(250), leeway: .milliseconds(20))
        timer.resume()
        power.timer = timer
        return power
    }

    private init(source: ShowSource, display: OutputSession, log: Log) {
        (self.source, self.display, self.log) = (source, display, log)
    }

    /// Stops the ticks. Outputs it turned off are turned on again: glout leaves no screen dark.
    func stop() {
        stopped = true
        if let timer {
            // No tick runs once this returns.
            let cancelled = DispatchSemaphore(value: 0)
            timer.setCancelHandler { cancelled.signal() }
            timer.cancel()
            cancelled.wait()
        }
        timer = nil
        // Every output within a stretch off: a request to turn it off may be unanswered yet.
        for (name, tracked) in outputs where tracked.off || tracked.powered {
            if let output = display.outputs.first(where: { $0.name == name }) { display.tracker.setPower(.on, of: output.id) { _ in } }
        }
        outputs = [:]
        display.connection.flush()
    }

    private func tick() {
        guard !stopped else { return }
        let now = Date().timeIntervalSince1970
        let show = source.show
        let shown = display.outputs.filter { display.windows[$0.id] != nil }
        for name in outputs.keys where !shown.contains(where: { $0.name == name }) {
            outputs[name] = nil
            source.setOffWindow(nil, for: name)
        }
        for output in shown {
            let primary = display.primary?.name == output.name
            var tracked = outputs[output.name]
            if tracked == nil || tracked!.known.show != ObjectIdentifier(show) || tracked!.known.primary != primary
                || now - tracked!.workedOut >= ShowPower.recheck || (tracked!.known.window.map { now >= $0.end } ?? false) {
                let window = show.show.power(for: output.name, primary: primary)?.offWindow(around: now)
                let known = ShowSource.KnownOffWindow(show: ObjectIdentifier(show), primary: primary, window: window)
                source.setOffWindow(known, for: output.name)
                var fresh = Tracked(known: known, workedOut: now)
                (fresh.off, fresh.powered) = (tracked?.off ?? false, tracked?.powered ?? false)
                tracked = fresh
            }
            outputs[output.name] = tracked
            act(on: output, now: now)
        }
    }

    /// Turns the output off at the start of its stretch, on (and wakes it) just before its end.
    private func act(on output: Output, now: Double) {
        guard let tracked = outputs[output.name] else { return }
        let window = tracked.known.window
        let offNow = window.map { $0.contains(now) && $0.end - now > ShowPower.lead } ?? false
        if offNow && !tracked.off {
            outputs[output.name]?.off = true
            outputs[output.name]?.woken = false
            turnOff(output, until: window!.end)
        } else if tracked.off && !offNow {
            outputs[output.name]?.off = false
            outputs[output.name]?.powered = false
            if tracked.powered { turnOn(output) }
            log.info("output \(output.printableName): on (the show's off ends)")
        }
        if let window, !tracked.woken, now >= window.end - ShowPower.lead {
            outputs[output.name]?.woken = true
            display.setNeedsDisplay(on: output)
        }
    }

    private func turnOff(_ output: Output, until end: Double) {
        let until = end.isFinite ? "until \(ShowPower.describe(end))" : "for good"
        let name = output.name
        display.tracker.setPower(.off, of: output.id) { [weak self] outcome in
            guard let self, self.outputs[name]?.off == true else { return }
            if outcome == .applied {
                self.outputs[name]?.powered = true
                self.log.info("output \(output.printableName): off \(until) (the show's off; wlr-output-power-management)")
            } else {
                self.log.warning("output \(output.printableName): cannot turn it off: \(outcome); drawing black with its "
                                 + "display link paused \(until) (the show's off)")
            }
        }
    }

    private func turnOn(_ output: Output) {
        display.tracker.setPower(.on, of: output.id) { [log] outcome in
            if outcome != .applied { log.warning("output \(output.printableName): turning it on again: \(outcome)") }
        }
    }

    /// An instant as the log writes it: UTC, to the second.
    static func describe(_ seconds: Double) -> String {
        let formatter = ISO8601DateFormatter()
        return formatter.string(from: Date(timeIntervalSince1970: seconds.rounded(.down)))
    }
}
