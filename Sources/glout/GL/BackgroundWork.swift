import CGLES
import Foundation
import WaylandOutputs

/// Work with the share group's objects that glout does off the render threads and waits
/// for as it stops (joining a video's decoder, deleting its textures, uploading its next
/// frames): each job on a thread of its own, inside `group`. Everything the job holds is
/// let go of, and the thread's EGL state released, on that thread before the group hears
/// it is done: nothing it held (the graphics, a video) can be freed there while the
/// process exits (the last reference to the graphics going on such a thread as `exit`
/// ran libEGL's destructors was a double free).
enum BackgroundWork {
    static func start(in group: DispatchGroup, _ job: @escaping @Sendable () -> Void) {
        let held = Locked<(@Sendable () -> Void)?>(job)
        group.enter()
        Thread {
            if let job = held.withLock({ job in defer { job = nil }; return job }) { job() }
            eglReleaseThread()
            group.leave()
        }.start()
    }
}
