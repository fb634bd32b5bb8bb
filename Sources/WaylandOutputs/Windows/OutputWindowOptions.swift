extension OutputWindow {
    /// How an ``OutputWindow`` is made: its surface, the frames it keeps, and presentation
    /// feedback.
    package struct Options: Sendable {
        /// The window's app ID, title, render size and scale mode.
        package var surface: FullscreenSurface.Options
        /// How many recent frames ``frameLog`` keeps (nil: every frame, for benchmarks).
        package var frameLogCapacity: Int?
        /// Ask for wp_presentation_feedback on every commit, where the compositor offers it.
        package var presentationFeedback: Bool
        /// The most feedback requests left unanswered at once (the oldest is dropped).
        package var outstandingFeedbackLimit: Int

        package init(surface: FullscreenSurface.Options, frameLogCapacity: Int? = 4096, presentationFeedback: Bool = true,
                    outstandingFeedbackLimit: Int = 8) {
            self.surface = surface
            self.frameLogCapacity = frameLogCapacity
            self.presentationFeedback = presentationFeedback
            self.outstandingFeedbackLimit = max(1, outstandingFeedbackLimit)
        }

        /// A window called `appID`, drawing at the output's own size.
        package init(appID: String) {
            self.init(surface: FullscreenSurface.Options(appID: appID))
        }
    }
}
