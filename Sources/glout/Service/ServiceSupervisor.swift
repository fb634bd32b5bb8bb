import Dispatch
import WaylandOutputs

/// glout as a `Type=notify` systemd service: READY=1 once every output shows its first
/// frame, WATCHDOG=1 from the session's thread while no frame hangs, STATUS= lines saying
/// what it draws, and STOPPING=1 at the end. Ticks come from a timer on another thread,
/// but each is judged and sent on the session's thread, so that a hung main loop sends
/// nothing either.
final class ServiceSupervisor {
    private let notifier: ServiceNotifier
    private let display: OutputSession
    private let log: Log
    private let started = MonotonicInstant.now
    private var health: ServiceHealth
    private var timer: DispatchSourceTimer?
    private var saidStuck = false
    private var stopped = false
    private var saidSendFailure = false

    /// The supervisor $NOTIFY_SOCKET asks for, started; nil without one, or with one glout
    /// cannot use (a warning says so: a variable left in a shell does not stop glout).
    static func start(display: OutputSession, log: Log) -> ServiceSupervisor? {
        let notifier: ServiceNotifier
        do {
            guard let found = try ServiceNotifier.fromEnvironment() else { return nil }
            notifier = found
        } catch {
            log.warning("systemd: \(error.message); glout runs without notifying it")
            return nil
        }
        let supervisor = ServiceSupervisor(notifier: notifier, display: display, log: log)
        supervisor.startTicking()
        if let timeout = notifier.watchdogTimeout {
            log.debug("systemd: NOTIFY_SOCKET set, watchdog every \(timeout.inSeconds / 2) s")
        }
        return supervisor
    }

    private init(notifier: ServiceNotifier, display: OutputSession, log: Log) {
        self.notifier = notifier
        self.display = display
        self.log = log
        health = ServiceHealth(watchdogTimeout: notifier.watchdogTimeout?.inSeconds)
    }

    /// A tick every 100 ms until ready, then every quarter of the watchdog's timeout (at
    /// most 1 s apart); none after ready without a watchdog. systemd so hears within half
    /// its timeout of a frame that has hung for half of it.
    private func startTicking() {
        let timer = DispatchSource.makeTimerSource(queue: .global(qos: .utility))
        let session = WeakSessionReference(self), display = WeakSessionReference(self.display)
        timer.setEventHandler {
            display.value?.onSessionThread { session.value?.tick() }
        }
        timer.schedule(deadline: .now() + .milliseconds(100), repeating: .milliseconds(100), leeway: .milliseconds(10))
        timer.resume()
        self.timer = timer
    }

    /// On the session's thread.
    private func tick() {
        guard !stopped else { return }
        let now = MonotonicInstant.now
        let windows = display.windows.values.map { window in
            let statistics = window.statistics
            return ServiceHealth.Window(name: window.output.name, shown: statistics.callbacks > 0 || statistics.presented > 0,
                                        suspended: statistics.isSuspended,
                                        inFrame: statistics.frameStarted.map { now > $0 ? (now - $0).inSeconds : 0 })
        }.sorted { $0.name < $1.name }
        switch health.judge(windows, elapsed: (now - started).inSeconds) {
        case .starting:
            return
        case .ready(let waiting):
            let drawing = windows.count - waiting.count
            var status = "drawing on \(drawing) output\(drawing == 1 ? "" : "s")"
            if !waiting.isEmpty {
                status += "; nothing shown yet on " + waiting.map(Log.printable).joined(separator: ", ")
                log.warning("systemd: ready after \(Int(ServiceHealth.readyDeadline)) s, though "
                            + waiting.map(Log.printable).joined(separator: ", ") + " has shown no frame yet")
            }
            send("READY=1", "STATUS=" + status)
            rescheduleAfterReady()
        case .alive:
            saidStuck = false
            send("WATCHDOG=1")
        case .stuck(let name, let seconds):
            if !saidStuck {
                saidStuck = true
                log.error("output \(Log.printable(name)): one frame has taken \(format(seconds, 1)) s; "
                          + "no more watchdog keep-alives, so that systemd restarts glout")
            }
        }
    }

    private func rescheduleAfterReady() {
        guard let timeout = notifier.watchdogTimeout else {
            timer?.cancel()
            timer = nil
            return
        }
        let interval = min(timeout / 4, .seconds(1))
        timer?.schedule(deadline: .now() + .nanoseconds(Int(interval.inNanoseconds)),
                        repeating: .nanoseconds(Int(interval.inNanoseconds)), leeway: .milliseconds(20))
        send("WATCHDOG=1")
    }

    private func send(_ lines: String...) {
        if let failure = notifier.send(lines: lines), !saidSendFailure {
            saidSendFailure = true
            log.warning("systemd: could not notify NOTIFY_SOCKET: \(failure)")
        }
    }

    /// STOPPING=1, and no more ticks. On the session's thread, as glout stops.
    func stop() {
        stopped = true
        timer?.cancel()
        timer = nil
        send("STOPPING=1")
    }
}
