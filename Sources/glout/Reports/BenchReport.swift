import Foundation
import WaylandOutputs

/// One bench run: the pacing of every output, and what the process spent.
struct BenchRun {
    struct Output {
        var name: String
        var refreshMilliHertz: Int32
        /// The period intervals are judged against, nanoseconds.
        var period: UInt64
        var pacing: OutputPacing
        var stallMilliseconds: Double
        var suspensions: UInt64
        var feedbackMostOutstanding: Int
        var feedbackRequested: UInt64
        var feedbackDropped: UInt64
        /// What the compositor said of the frames, where it answers presentation feedback.
        var compositor: PresentationReport?
        /// Whether commits carried wp_fifo_v1 barriers and wp_commit_timer_v1 timestamps.
        var fifo = false
        var commitTiming = false
        /// Commits timestamped ahead that the compositor seemed to hold (each remade the surface).
        var timestampsHeld: UInt64 = 0
        /// The display link's frame interval: the output asks for a frame every this many refreshes.
        var interval = 1
        /// Its --content videos (one per file a playlist shows), over the whole run.
        var videos: [VideoReport] = []
        /// The distinct video frames it showed in the measured window.
        var videoFramesMeasured = 0

        /// Its render thread's CPU over the measured window per video frame it showed
        /// there (nil without a video frame).
        var cpuMillisecondsPerVideoFrame: Double? {
            videoFramesMeasured > 0 ? pacing.cpuMillisecondsPerFrame * Double(pacing.frames) / Double(videoFramesMeasured) : nil
        }

        /// The frames a second the output asks for: its refresh rate over its frame interval.
        var askedFramesPerSecond: Double { period > 0 ? 1e9 / Double(period) / Double(max(1, interval)) : 0 }
    }

    /// Each output's share of the frames: asked (its rate over all the outputs' rates) and
    /// got (its frames over all the frames), in per cent. When the machine is short, a fair
    /// share is one in proportion to the rate asked: the two agree.
    func shares() -> [(asked: Double, got: Double)] {
        let asked = outputs.reduce(0) { $0 + $1.askedFramesPerSecond }
        let got = outputs.reduce(0) { $0 + $1.pacing.framesPerSecond }
        return outputs.map { output in
            (asked > 0 ? 100 * output.askedFramesPerSecond / asked : 0, got > 0 ? 100 * output.pacing.framesPerSecond / got : 0)
        }
    }

    var mode: PacingMode
    /// wp_presentation's clock id, nil without presentation-time.
    var presentationClock: UInt32?
    var seconds: Double
    var outputs: [Output]
    var processCPUMillisecondsPerFrame: Double
    /// The process's CPU in the measured window over the video frames the outputs showed
    /// in it (nil without a video).
    var processCPUMillisecondsPerVideoFrame: Double? = nil
    var peakRSSKilobytes: Int

    /// The table printed at the end of a run.
    func table() -> String {
        var lines = ["glout bench: \(mode.rawValue) pacing, \(format(seconds, 1)) s measured, \(outputs.count) output(s)"]
        let header = ["output", "refresh", "frames", "fps", "interval ms: mean", "sd", "p50", "p99", "p99.9", "max",
                      "p99/T", "max/T", "missed", "jank%", "on-time%", "share asked/got %", "render p50/p99 ms",
                      "cpu ms/frame", "timing"]
        var rows = [header]
        let shares = shares()
        for (output, share) in zip(outputs, shares) {
            let p = output.pacing
            let periods = p.intervals.inPeriods(of: output.period)
            rows.append([
                Log.printable(output.name) + (output.stallMilliseconds > 0 ? " (+\(format(output.stallMilliseconds, 0)) ms)" : ""),
                output.refreshMilliHertz > 0 ? "\(format(Double(output.refreshMilliHertz) / 1000, 3)) Hz" : "?",
                "\(p.frames)", format(p.framesPerSecond, 2),
                format(p.intervals.mean, 2), format(p.intervals.stddev, 2), format(p.intervals.p50, 2),
                format(p.intervals.p99, 2), format(p.intervals.p999, 2), format(p.intervals.max, 2),
                format(periods.p99, 2), format(periods.max, 2), "\(p.missed)", format(p.jankPercent, 2),
                format(p.onTimePercent, 2), "\(format(share.asked, 1))/\(format(share.got, 1))",
                "\(format(p.renderTime.p50, 2))/\(format(p.renderTime.p99, 2))",
                format(p.cpuMillisecondsPerFrame, 2), p.source.rawValue,
            ])
        }
        let widths = header.indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        for row in rows {
            lines.append(row.enumerated().map { column, cell in
                column == 0 ? cell.padding(toLength: widths[column], withPad: " ", startingAt: 0)
                    : String(repeating: " ", count: widths[column] - cell.count) + cell
            }.joined(separator: "  "))
        }
        lines.append("process: \(format(processCPUMillisecondsPerFrame, 2)) ms CPU per frame (all outputs), "
                     + (processCPUMillisecondsPerVideoFrame.map { "\(format($0, 2)) ms per video frame shown, " } ?? "")
                     + "peak RSS \(peakRSSKilobytes / 1024) MiB")
        if outputs.count > 1 {
            let got = outputs.map { $0.askedFramesPerSecond > 0 ? 100 * $0.pacing.framesPerSecond / $0.askedFramesPerSecond : 0 }
            lines.append("shares: every output got \(format(got.min() ?? 0, 1)) to \(format(got.max() ?? 0, 1))% of the frames it asked for")
        }
        for output in outputs {
            for video in output.videos {
                let file = output.videos.count > 1 ? " \(video.file)" : ""
                lines.append("\(Log.printable(output.name)): video\(file) (whole run) " + video.summary)
            }
        }
        for output in outputs where output.pacing.presented > 0 || output.pacing.discarded > 0 {
            let toPresent = output.pacing.commitToPresent
            var line = "\(Log.printable(output.name)): \(output.pacing.presented) presented, \(output.pacing.discarded) discarded"
                + (toPresent.map { ", commit to present p50 \(format($0.p50, 2)) ms, p99 \(format($0.p99, 2)) ms" } ?? "")
            if let compositor = output.compositor {
                line += ", next refresh \(format(compositor.next_refresh_pct, 1))%"
                if let landing = compositor.landing {
                    line += ", landing p50 \(format(landing.p50_ms, 2)) p99 \(format(landing.p99_ms, 2)) max "
                        + "\(format(landing.max_ms, 2)) ms (targets: \(landing.target))"
                }
                if let grid = compositor.own_grid {
                    line += ", off its own grid p99 \(format(grid.presented_off_ms.p99, 2)) ms"
                        + (grid.target_off_ms.map { " (targets p99 \(format($0.p99, 2)) ms)" } ?? "")
                }
                if let startup = compositor.startup_landing {
                    line += ", start-up landing p50 \(format(startup.p50_ms, 2)) max \(format(startup.max_ms, 2)) ms"
                }
                if !compositor.flags.isEmpty { line += ", flags " + compositor.flags.joined(separator: "+") }
            }
            if output.fifo || output.commitTiming {
                line += ", commits with " + [output.fifo ? "fifo" : nil, output.commitTiming ? "commit-timing" : nil]
                    .compactMap { $0 }.joined(separator: " and ")
            }
            lines.append(line)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The JSON documented in docs/json.md.
    var json: JSON {
        struct Summary: Encodable {
            var mean, stddev, p50, p99, p999, max: Double
            init(_ s: IntervalSummary) { (mean, stddev, p50, p99, p999, max) = (s.mean, s.stddev, s.p50, s.p99, s.p999, s.max) }
        }
        struct Quantiles: Encodable {
            var p50, p99: Double
            init(_ s: IntervalSummary) { (p50, p99) = (s.p50, s.p99) }
        }
        struct Feedback: Encodable { var requested: UInt64; var presented, discarded, outstanding_max: Int; var dropped: UInt64 }
        struct Entry: Encodable {
            var name: String
            var refresh_mhz: Int32
            var period_ms: Double
            var frames: Int
            var fps: Double
            var interval_ms: Summary
            var interval_periods: Summary
            var missed: Int
            var jank_pct: Double
            var on_time_pct: Double
            var render_ms: Quantiles
            var commit_to_present_ms: Quantiles?
            var compositor_interval_ms: Summary?
            var cpu_ms_per_frame: Double
            var cpu_ms_per_video_frame: Double?
            var timing_source: String
            var presentation: Feedback
            /// What the compositor said of the frames (docs/json.md).
            var compositor: PresentationReport?
            var fifo: Bool
            var commit_timing: Bool
            var timestamps_held: UInt64
            var asked_fps: Double
            var share_asked_pct: Double
            var share_got_pct: Double
            var suspensions: UInt64
            var stall_ms: Double
            var video: VideoReport?
            var videos: [VideoReport]?
        }
        struct Pacing: Encodable {
            var mode: String
            var presentation_clock: UInt32?
            var duration_s: Double
            var process_cpu_ms_per_frame: Double
            var process_cpu_ms_per_video_frame: Double?
            var peak_rss_kb: Int
        }
        struct Report: Encodable {
            var outputs: [Entry]
            var pacing: Pacing
        }
        let entries = zip(outputs, shares()).map { output, share in
            let p = output.pacing
            return Entry(name: output.name, refresh_mhz: output.refreshMilliHertz, period_ms: Double(output.period) / 1e6,
                         frames: p.frames, fps: p.framesPerSecond, interval_ms: Summary(p.intervals),
                         interval_periods: Summary(p.intervals.inPeriods(of: output.period)), missed: p.missed,
                         jank_pct: p.jankPercent, on_time_pct: p.onTimePercent, render_ms: Quantiles(p.renderTime),
                         commit_to_present_ms: p.commitToPresent.map(Quantiles.init),
                         compositor_interval_ms: p.compositorIntervals.map(Summary.init),
                         cpu_ms_per_frame: p.cpuMillisecondsPerFrame, cpu_ms_per_video_frame: output.cpuMillisecondsPerVideoFrame,
                         timing_source: p.source.rawValue,
                         presentation: Feedback(requested: output.feedbackRequested, presented: p.presented, discarded: p.discarded,
                                                outstanding_max: output.feedbackMostOutstanding,
                                                dropped: output.feedbackDropped),
                         compositor: output.compositor, fifo: output.fifo, commit_timing: output.commitTiming,
                         timestamps_held: output.timestampsHeld, asked_fps: output.askedFramesPerSecond, share_asked_pct: share.asked, share_got_pct: share.got,
                         suspensions: output.suspensions, stall_ms: output.stallMilliseconds,
                         video: output.videos.count == 1 ? output.videos[0] : nil,
                         videos: output.videos.count > 1 ? output.videos : nil)
        }
        return JSON(Report(outputs: entries, pacing: Pacing(mode: mode.rawValue, presentation_clock: presentationClock,
                                                            duration_s: seconds,
                                                            process_cpu_ms_per_frame: processCPUMillisecondsPerFrame,
                                                            process_cpu_ms_per_video_frame: processCPUMillisecondsPerVideoFrame,
                                                            peak_rss_kb: peakRSSKilobytes)))
    }
}

/// Any Encodable, boxed so reports can nest each other.
struct JSON: Encodable {
    private let value: any Encodable
    init(_ value: any Encodable) { self.value = value }
    func encode(to encoder: any Encoder) throws { try value.encode(to: encoder) }
}

/// A number with a fixed count of decimals.
func format(_ value: Double, _ decimals: Int) -> String {
    String(format: "%.\(decimals)f", value)
}
