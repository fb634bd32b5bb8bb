import CWayland
import Glibc
import XCTest
@testable import WaylandOutputs

/// The core protocol's listener tables against the libwayland the tests run with: every
/// event of every version the library binds has a handler (libwayland aborts on a NULL
/// one), whichever libwayland's header the package was built with.
final class ListenerTableTests: XCTestCase {
    /// libwayland-client's own description of a core interface (extern data, looked up by
    /// name: Swift cannot take its address).
    private func interface(_ name: String) throws -> UnsafePointer<wl_interface> {
        let symbol = try XCTUnwrap(dlsym(UnsafeMutableRawPointer(bitPattern: 0), "\(name)_interface"), name)
        return UnsafePointer(symbol.assumingMemoryBound(to: wl_interface.self))
    }

    private func bound(_ global: String) -> UInt32 { Registry.highestVersions[global] ?? 1 }

    func test_everyCoreListenerCoversTheVersionItsProxyIsBoundAt() throws {
        // A seat's devices have the seat's version; a surface has its compositor's.
        let seat = min(bound("wl_seat"), UInt32(try interface("wl_seat").pointee.version))
        XCTAssertGreaterThanOrEqual(Seat.seatListener.coveredVersion(of: try interface("wl_seat")), seat)
        XCTAssertGreaterThanOrEqual(Seat.keyboardListener.coveredVersion(of: try interface("wl_keyboard")), seat)
        XCTAssertGreaterThanOrEqual(Seat.pointerListener.coveredVersion(of: try interface("wl_pointer")), seat)
        XCTAssertGreaterThanOrEqual(Seat.touchListener.coveredVersion(of: try interface("wl_touch")), seat)
        let output = min(bound("wl_output"), UInt32(try interface("wl_output").pointee.version))
        XCTAssertGreaterThanOrEqual(OutputProxy.outputListener.coveredVersion(of: try interface("wl_output")), output)
        let compositor = min(bound("wl_compositor"), UInt32(try interface("wl_compositor").pointee.version))
        XCTAssertGreaterThanOrEqual(OutputSurface.surfaceListener.coveredVersion(of: try interface("wl_surface")), compositor)
        XCTAssertGreaterThanOrEqual(Registry.listener.coveredVersion(of: try interface("wl_registry")), 1)
        XCTAssertGreaterThanOrEqual(DisplayLink.listener.coveredVersion(of: try interface("wl_callback")), 1)
    }

    func test_whereLibwaylandHasSurfaceVersion6TheSurfaceHandlesItsPreferredBufferEvents() throws {
        let surface = try interface("wl_surface")
        guard surface.pointee.version >= 6 else {
            throw XCTSkip("this libwayland's wl_surface is version \(surface.pointee.version) (1.21 or older)")
        }
        // The header the package was built with may be older than the library it runs with.
        if MemoryLayout<wl_surface_listener>.size >= 4 * MemoryLayout<UnsafeRawPointer>.size {
            XCTAssertEqual(OutputSurface.surfaceVersion, 6)
            XCTAssertEqual(Registry.highestVersions["wl_compositor"], 6)
        } else {
            XCTAssertEqual(OutputSurface.surfaceVersion, 5)
            XCTAssertEqual(Registry.highestVersions["wl_compositor"], 4)
        }
    }

    func test_aTableMissingAHandlerCoversOnlyTheVersionsBeforeThatEvent() throws {
        // wl_pointer: enter..axis are version 1, frame..axis_discrete 5, axis_value120 8.
        let pointer = try interface("wl_pointer")
        let none = ListenerTable(wl_pointer_listener()) { _ in }
        XCTAssertEqual(none.coveredVersion(of: pointer), 0)
        let firstOnly = ListenerTable(wl_pointer_listener()) {
            $0.enter = { _, _, _, _, _, _ in }
            $0.leave = { _, _, _, _ in }
            $0.motion = { _, _, _, _, _ in }
            $0.button = { _, _, _, _, _, _ in }
            $0.axis = { _, _, _, _, _ in }
        }
        XCTAssertEqual(firstOnly.coveredVersion(of: pointer), 4)
        // The library's own table covers through axis_value120.
        XCTAssertGreaterThanOrEqual(Seat.pointerListener.coveredVersion(of: pointer), 8)
    }
}
