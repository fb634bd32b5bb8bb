import CWayland

/// The ranges within which the library takes the numbers a compositor sends, and what it
/// does with one outside them. A compositor is input like any other: every size, scale,
/// transform, refresh and time passes through here where it enters (the ``Output`` built
/// on `done`, a configure, a preferred scale, presentation feedback), before any
/// arithmetic uses it, so that no later arithmetic can overflow. Pure, so every rule is
/// unit-tested.
///
/// A value out of range is clamped or dropped; the caller reports it once per output and
/// kind (``CompositorComplaints``), naming the interface, the event, the value and what
/// was done instead.
enum CompositorValues {
    /// A side of a mode, a logical size or a configure, in pixels or points. 32768 is four
    /// times the widest display made; GL drivers draw at most 16384.
    package static let sides: ClosedRange<Int32> = 1...32768
    /// A logical position, in points (the wall file's range).
    package static let positions: ClosedRange<Int32> = -1_000_000...1_000_000
    /// An integer scale (wl_output.scale, wl_surface.preferred_buffer_scale). Displays go
    /// up to 4 today.
    package static let scales: ClosedRange<Int32> = 1...8
    /// A fractional scale in 120ths (wp_fractional_scale_v1.preferred_scale): 0.25 to 8.
    package static let fractionalScales: ClosedRange<UInt32> = 30...960
    /// A refresh rate in mHz (wl_output.mode): 1 to 1000 Hz. 0 means unknown.
    package static let refreshRates: ClosedRange<Int32> = 1_000...1_000_000
    /// A physical side in millimetres (wl_output.geometry): up to 100 m. 0 means unknown.
    package static let physicalSides: ClosedRange<Int32> = 0...100_000
    /// A refresh period in nanoseconds (wp_presentation_feedback.presented): 1 ms to 1 s.
    /// 0 means unknown.
    package static let refreshPeriods: ClosedRange<UInt32> = 1_000_000...1_000_000_000
    /// How far from now, on CLOCK_MONOTONIC, a presentation time may lie when it arrives:
    /// a frame is presented before its feedback is sent, and a compositor's queue delays
    /// it by milliseconds, not seconds.
    package static let presentationPast: UInt64 = 10_000_000_000
    package static let presentationFuture: UInt64 = 1_000_000_000

    /// What was done with a value out of range.
    package struct Problem: Sendable, Equatable, CustomStringConvertible {
        /// The interface and event, e.g. "wl_output.scale".
        package var event: String
        /// The value as sent, e.g. "2147483647".
        package var value: String
        /// What the library did instead, e.g. "using 8".
        package var instead: String

        package init(event: String, value: String, instead: String) {
            (self.event, self.value, self.instead) = (event, value, instead)
        }

        /// "wl_output.scale 2147483647 is out of range; using 8".
        package var description: String { "\(event) \(value) is out of range; \(instead)" }
        /// The kind of problem, for saying it once: the event.
        var kind: String { event }
    }

    /// A checked value and, when it was out of range, what was done.
    package struct Checked<Value: Sendable & Equatable>: Sendable, Equatable {
        package var value: Value
        package var problem: Problem?
    }

    // MARK: - wl_output and xdg-output

    /// wl_output.scale: clamped to ``scales``.
    package static func scale(_ scale: Int32) -> Checked<Int32> {
        guard !scales.contains(scale) else { return Checked(value: scale) }
        let clamped = min(max(scale, scales.lowerBound), scales.upperBound)
        return Checked(value: clamped, problem: Problem(event: "wl_output.scale", value: "\(scale)", instead: "using \(clamped)"))
    }

    /// wl_output.transform: 0 to 7; anything else is taken as normal.
    package static func transform(_ transform: Int32) -> Checked<OutputTransform> {
        if let known = OutputTransform(rawValue: transform) { return Checked(value: known) }
        return Checked(value: .normal, problem: Problem(event: "wl_output.geometry transform", value: "\(transform)",
                                                        instead: "using normal"))
    }

    /// wl_output.geometry subpixel: 0 to 5, else unknown.
    package static func subpixel(_ subpixel: Int32) -> Checked<Subpixel> {
        if let known = Subpixel(rawValue: subpixel) { return Checked(value: known) }
        return Checked(value: .unknown, problem: Problem(event: "wl_output.geometry subpixel", value: "\(subpixel)",
                                                         instead: "using unknown"))
    }

    /// wl_output.geometry physical size: each side within ``physicalSides``, else the size
    /// is unknown (0x0). Negative sides are taken as unknown without a problem: kwin 6.3
    /// sends -1x-1 for its virtual outputs, and the protocol gives them no other meaning.
    package static func physicalSize(width: Int32, height: Int32) -> Checked<Size> {
        if width < 0 || height < 0 { return Checked(value: .zero) }
        guard physicalSides.contains(width), physicalSides.contains(height) else {
            return Checked(value: .zero, problem: Problem(event: "wl_output.geometry physical size",
                                                          value: "\(width)x\(height) mm", instead: "taking it as unknown"))
        }
        return Checked(value: Size(width: width, height: height))
    }

    /// wl_output.mode: a size within ``sides``, else the mode is dropped (nil).
    package static func mode(width: Int32, height: Int32) -> Checked<Size?> {
        guard sides.contains(width), sides.contains(height) else {
            return Checked(value: nil, problem: Problem(event: "wl_output.mode", value: "\(width)x\(height)",
                                                        instead: "ignoring the mode"))
        }
        return Checked(value: Size(width: width, height: height))
    }

    /// The refresh of a wl_output.mode, in mHz: within ``refreshRates``, or 0 (unknown).
    package static func refresh(_ refresh: Int32) -> Checked<Int32> {
        guard refresh != 0, !refreshRates.contains(refresh) else { return Checked(value: refresh) }
        return Checked(value: 0, problem: Problem(event: "wl_output.mode refresh", value: "\(refresh) mHz",
                                                  instead: "taking it as unknown"))
    }

    /// zxdg_output_v1.logical_size: both sides within ``sides``, else ignored (nil: the size
    /// is derived from the mode, the transform and the scale, as without xdg-output).
    package static func logicalSize(width: Int32, height: Int32) -> Checked<Size?> {
        guard sides.contains(width), sides.contains(height) else {
            return Checked(value: nil, problem: Problem(event: "zxdg_output_v1.logical_size", value: "\(width)x\(height)",
                                                        instead: "deriving it from the mode"))
        }
        return Checked(value: Size(width: width, height: height))
    }

    /// zxdg_output_v1.logical_position: within ``positions``, else ignored (nil).
    package static func logicalPosition(x: Int32, y: Int32) -> Checked<Point?> {
        guard positions.contains(x), positions.contains(y) else {
            return Checked(value: nil, problem: Problem(event: "zxdg_output_v1.logical_position", value: "\(x),\(y)",
                                                        instead: "ignoring it"))
        }
        return Checked(value: Point(x: x, y: y))
    }

    // MARK: - Surfaces

    /// xdg_toplevel.configure: 0 on a side means the client chooses; a negative side is
    /// taken as 0, a side beyond ``sides`` as its largest.
    package static func configure(width: Int32, height: Int32) -> Checked<Size> {
        func side(_ value: Int32) -> Int32 { value < 0 ? 0 : min(value, sides.upperBound) }
        let size = Size(width: side(width), height: side(height))
        guard size.width == width, size.height == height else {
            return Checked(value: size, problem: Problem(event: "xdg_toplevel.configure", value: "\(width)x\(height)",
                                                         instead: "using \(size)"))
        }
        return Checked(value: size)
    }

    /// wp_fractional_scale_v1.preferred_scale: within ``fractionalScales``, else ignored
    /// (nil: the integer scale is used).
    package static func fractionalScale(_ scale: UInt32) -> Checked<UInt32?> {
        guard fractionalScales.contains(scale) else {
            return Checked(value: nil, problem: Problem(event: "wp_fractional_scale_v1.preferred_scale",
                                                        value: "\(scale)/120", instead: "using the integer scale"))
        }
        return Checked(value: scale)
    }

    /// wl_surface.preferred_buffer_scale: within ``scales``, else ignored (nil).
    package static func preferredBufferScale(_ scale: Int32) -> Checked<Int32?> {
        guard scales.contains(scale) else {
            return Checked(value: nil, problem: Problem(event: "wl_surface.preferred_buffer_scale", value: "\(scale)",
                                                        instead: "using the output's scale"))
        }
        return Checked(value: scale)
    }

    /// wl_surface.preferred_buffer_transform: 0 to 7, else ignored (nil).
    package static func preferredBufferTransform(_ transform: UInt32) -> Checked<OutputTransform?> {
        if transform <= 7, let known = OutputTransform(rawValue: Int32(transform)) { return Checked(value: known) }
        return Checked(value: nil, problem: Problem(event: "wl_surface.preferred_buffer_transform", value: "\(transform)",
                                                    instead: "ignoring it"))
    }

    // MARK: - Presentation

    /// Why a wp_presentation_feedback.presented time cannot be used.
    package enum RejectedTime: String, Error, Sendable, Equatable {
        /// tv_nsec is 10⁹ or more.
        case nanosecondsOutOfRange = "its nanoseconds are 10^9 or more"
        /// The clock (wp_presentation.clock_id) is not one this machine can read.
        case unknownClock = "its clock cannot be read here"
        /// Further from now than a presentation can be.
        case farFromNow = "it is seconds away from now"
        /// Earlier than a frame presented before it.
        case backwards = "it is earlier than the frame before"
    }

    /// A presented time (already on CLOCK_MONOTONIC: nil where it does not fit in 64 bits
    /// of nanoseconds), checked against the time it arrived at and the previous accepted
    /// one of the same surface. `clockKnown` says whether its clock could be read.
    package static func presentedTime(_ time: UInt64?, nanoseconds: UInt32, clockKnown: Bool = true, arrivedAt now: UInt64,
                                     previous: UInt64?) -> Result<UInt64, RejectedTime> {
        guard nanoseconds < 1_000_000_000 else { return .failure(.nanosecondsOutOfRange) }
        guard clockKnown else { return .failure(.unknownClock) }
        guard let time else { return .failure(.farFromNow) }
        guard time <= now &+ presentationFuture, now < presentationPast || time >= now - presentationPast else {
            return .failure(.farFromNow)
        }
        if let previous, time < previous { return .failure(.backwards) }
        return .success(time)
    }

    /// wp_presentation_feedback.presented seq as a count of refreshes: only where the
    /// presentation was vsync'd (the kind's vsync flag), else 0 (none). Headless mutter
    /// sends a sequence that counts its frames, not its refreshes, with flags 4 (no vsync):
    /// a frame after a 50 ms gap came with a sequence one more, which read as a jump of
    /// two refreshes off the grid.
    package static func presentedSequence(_ sequence: UInt64, flags: UInt32) -> UInt64 {
        flags & WP_PRESENTATION_FEEDBACK_KIND_VSYNC.rawValue != 0 ? sequence : 0
    }

    /// wp_presentation_feedback.presented refresh: within ``refreshPeriods``, or 0
    /// (unknown).
    package static func presentedRefresh(_ refresh: UInt32) -> Checked<UInt32> {
        guard refresh != 0, !refreshPeriods.contains(refresh) else { return Checked(value: refresh) }
        return Checked(value: 0, problem: Problem(event: "wp_presentation_feedback.presented refresh", value: "\(refresh) ns",
                                                  instead: "taking it as unknown"))
    }
}

/// Says each problem with a compositor's values once per output and kind, as a warning
/// that names the output, the interface and event, the value and what was done instead.
/// Later ones of the same kind go to the debug log. One per owner; not thread-safe.
struct CompositorComplaints {
    private var said: Set<String> = []

    /// Logs `problem` about `subject` ("output HDMI-A-1"), if there is one.
    mutating func report(_ problem: CompositorValues.Problem?, about subject: String, log: Log) {
        guard let problem else { return }
        let line = "\(subject): the compositor's \(problem)"
        if said.insert(problem.kind).inserted {
            log.warning(line)
        } else {
            log.debug(line)
        }
    }

    /// Logs a message of a kind of its own once (for problems that are not one value).
    mutating func report(kind: String, _ message: @autoclosure () -> String, log: Log) {
        if said.insert(kind).inserted { log.warning(message()) } else { log.debug(message()) }
    }
}
