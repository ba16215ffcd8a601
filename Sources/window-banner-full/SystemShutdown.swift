// logind's scheduled shutdown for the monitor's system notices (BannerMonitor's
// SystemNoticeWatcher), read with LoginSessions, which only window-banner-full links.

import BannerMonitor
import LoginSessions

enum SystemShutdown {
    /// What logind has scheduled: nil for nothing; a failure when logind cannot be asked.
    static func read() -> Result<ScheduledShutdown?, LogindUnavailable> {
        do {
            let scheduled = try LoginManager().scheduledShutdown()
            guard !scheduled.type.isEmpty else { return .success(nil) }
            return .success(ScheduledShutdown(type: scheduled.type, microseconds: scheduled.microseconds, wallMessage: scheduled.wallMessage))
        } catch {
            return .failure(LogindUnavailable("\(error)"))
        }
    }
}
