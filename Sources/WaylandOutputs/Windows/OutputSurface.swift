import CWayland

/// The shell's side of a window: the wl_surface, xdg_surface and xdg_toplevel, fullscreen
/// on one output, created on (and dispatched by) its window's event queue. A
/// ``FullscreenSurface`` holds one.
final class OutputSurface: ProxyOwner {
    let surface: OpaquePointer
    private let xdgSurface: OpaquePointer
    private let toplevel: OpaquePointer
    private let wlOutput: OpaquePointer

    /// The size the last xdg_toplevel.configure asked for (logical; 0 means "choose").
    private var proposedSize = Size.zero
    /// A configure that still needs an ack (xdg_surface.configure serial).
    private var pendingSerial: UInt32?
    /// Logical size of the last acknowledged configure; nil before the first.
    private(set) var configuredSize: Size?
    /// The compositor asked to close the window (xdg_toplevel.close).
    private(set) var closeRequested = false
    /// wl_output proxies the surface has entered and not left.
    private(set) var entered: [OpaquePointer] = []
    /// Called on wl_surface.enter with the output entered.
    var onEnter: ((OpaquePointer) -> Void)?
    /// Called when the outputs the surface is on change (enter or leave), or what the
    /// compositor prefers for its buffer.
    var onPlacementChange: (() -> Void)?
    /// Called with each value out of range the compositor sent (see ``CompositorValues``).
    var onProblem: ((CompositorValues.Problem) -> Void)?

    /// Keeps a checked value's problem for ``onProblem``.
    private func checked<T>(_ checked: CompositorValues.Checked<T>) -> T {
        if let problem = checked.problem { onProblem?(problem) }
        return checked.value
    }
    /// wp_viewport, made when a buffer first needs scaling by the compositor.
    private var viewport: OpaquePointer?
    private let viewporter: OpaquePointer?
    private let queue: EventQueue
    /// wp_fractional_scale_v1 and its last preferred_scale (120ths), where offered.
    private var fractionalScaleObject: OpaquePointer?
    private(set) var preferredScale: UInt32?
    /// wl_surface v6: the integer scale and the transform the compositor would like the
    /// buffer to have (preferred_buffer_scale, preferred_buffer_transform), once sent.
    private(set) var preferredBufferScale: Int32? { didSet { onPlacementChange?() } }
    private(set) var preferredBufferTransform: OutputTransform? { didSet { onPlacementChange?() } }

    /// Creates the surface objects, asks for fullscreen on `output` and makes the initial
    /// bufferless commit that starts the configure sequence.
    init(queue: EventQueue, compositor: OpaquePointer, wmBase: OpaquePointer, output: OpaquePointer,
         appID: String, title: String, viewporter: OpaquePointer? = nil, fractionalScaleManager: OpaquePointer? = nil) {
        self.queue = queue
        let compositorOnQueue = queue.wrapper(of: compositor)
        let wmBaseOnQueue = queue.wrapper(of: wmBase)
        self.viewporter = viewporter.map { queue.wrapper(of: $0) }
        surface = wl_compositor_create_surface(compositorOnQueue)
        xdgSurface = xdg_wm_base_get_xdg_surface(wmBaseOnQueue, surface)
        toplevel = xdg_surface_get_toplevel(xdgSurface)
        queue.releaseWrapper(compositorOnQueue)
        queue.releaseWrapper(wmBaseOnQueue)
        wlOutput = output

        wl_surface_add_listener(surface, OutputSurface.surfaceListener.pointer, userData)
        xdg_surface_add_listener(xdgSurface, OutputSurface.xdgSurfaceListener.pointer, userData)
        xdg_toplevel_add_listener(toplevel, OutputSurface.toplevelListener.pointer, userData)
        xdg_toplevel_set_app_id(toplevel, appID)
        xdg_toplevel_set_title(toplevel, title)
        xdg_toplevel_set_fullscreen(toplevel, output)
        // Fractional scales need a viewport to scale the buffer back to points.
        if let fractionalScaleManager, self.viewporter != nil {
            let managerOnQueue = queue.wrapper(of: fractionalScaleManager)
            fractionalScaleObject = wp_fractional_scale_manager_v1_get_fractional_scale(managerOnQueue, surface)
            queue.releaseWrapper(managerOnQueue)
            wp_fractional_scale_v1_add_listener(fractionalScaleObject, OutputSurface.fractionalListener.pointer, userData)
        }
        wl_surface_commit(surface)
    }

    /// Sets the buffer scale and the viewport for the next commit.
    func apply(_ scaling: SurfaceScaling) {
        wl_surface_set_buffer_scale(surface, scaling.bufferScale)
        if scaling.needsViewport, viewport == nil, let viewporter {
            viewport = wp_viewporter_get_viewport(viewporter, surface)
        }
        guard let viewport else { return }
        if let destination = scaling.destination {
            wp_viewport_set_destination(viewport, destination.width, destination.height)
        } else {
            wp_viewport_set_destination(viewport, -1, -1)
        }
        if let source = scaling.source {
            wp_viewport_set_source(viewport, wl_fixed_from_double(source.x), wl_fixed_from_double(source.y),
                                   wl_fixed_from_double(source.width), wl_fixed_from_double(source.height))
        } else {
            let unset = wl_fixed_from_int(-1)
            wp_viewport_set_source(viewport, unset, unset, unset, unset)
        }
    }

    /// Whether the compositor can scale buffers (wp_viewporter).
    var canScale: Bool { viewporter != nil }

    /// Asks again for fullscreen on the window's output (xdg_toplevel.set_fullscreen), for
    /// when the compositor has moved the surface elsewhere.
    func requestFullscreen() {
        xdg_toplevel_set_fullscreen(toplevel, wlOutput)
    }

    /// Acknowledges the latest configure, if one is pending (xdg_surface.ack_configure).
    /// Returns the logical size it proposed (0 for "client's choice"), or nil.
    func acknowledgeConfigure() -> Size? {
        guard let serial = pendingSerial else { return nil }
        pendingSerial = nil
        xdg_surface_ack_configure(xdgSurface, serial)
        configuredSize = proposedSize
        return proposedSize
    }

    var hasPendingConfigure: Bool { pendingSerial != nil }

    /// Destroys in reverse order of creation: fractional scale and viewport, toplevel,
    /// xdg_surface, wl_surface.
    func destroy() {
        onEnter = nil
        onPlacementChange = nil
        if let viewport { wp_viewport_destroy(viewport) }
        if let fractionalScaleObject { wp_fractional_scale_v1_destroy(fractionalScaleObject) }
        if let viewporter { queue.releaseWrapper(viewporter) }
        xdg_toplevel_destroy(toplevel)
        xdg_surface_destroy(xdgSurface)
        wl_surface_destroy(surface)
    }

    static let surfaceListener = ListenerTable(wl_surface_listener()) {
        $0.enter = { data, _, output in
            let surface = owner(data, as: OutputSurface.self)
            guard let output else { return }
            surface.entered.append(output)
            surface.onEnter?(output)
            surface.onPlacementChange?()
        }
        $0.leave = { data, _, output in
            let surface = owner(data, as: OutputSurface.self)
            surface.entered.removeAll { $0 == output }
            surface.onPlacementChange?()
        }
        // wl_surface v6, where this libwayland's header has it: ``surfaceVersion`` follows.
        cw_wl_surface_listener_set_preferred_buffer(
            &$0,
            { data, _, factor in
                let surface = owner(data, as: OutputSurface.self)
                surface.preferredBufferScale = surface.checked(CompositorValues.preferredBufferScale(factor))
            },
            { data, _, transform in
                let surface = owner(data, as: OutputSurface.self)
                surface.preferredBufferTransform = surface.checked(CompositorValues.preferredBufferTransform(transform))
            }
        )
    }

    /// The highest wl_surface version this listener handles every event of: 6 where
    /// libwayland has preferred_buffer_scale and _transform (1.22), else 5. wl_compositor is
    /// bound no higher (a surface has its compositor's version).
    static var surfaceVersion: UInt32 { surfaceListener.coveredVersion(of: cw_wl_surface_interface()) }

    private static let fractionalListener = ListenerTable(wp_fractional_scale_v1_listener(
        preferred_scale: { data, _, scale in
            let surface = owner(data, as: OutputSurface.self)
            surface.preferredScale = surface.checked(CompositorValues.fractionalScale(scale))
        }
    ))

    private static let xdgSurfaceListener = ListenerTable(xdg_surface_listener(
        configure: { data, _, serial in owner(data, as: OutputSurface.self).pendingSerial = serial }
    ))

    private static let toplevelListener = ListenerTable(xdg_toplevel_listener(
        configure: { data, _, width, height, _ in
            let surface = owner(data, as: OutputSurface.self)
            surface.proposedSize = surface.checked(CompositorValues.configure(width: width, height: height))
        },
        close: { data, _ in owner(data, as: OutputSurface.self).closeRequested = true },
        configure_bounds: { _, _, _, _ in },
        wm_capabilities: { _, _, _ in }
    ))
}
