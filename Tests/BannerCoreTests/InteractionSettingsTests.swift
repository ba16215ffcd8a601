// The close button, the action button and the progress value as written on the command line
// and in the builder: what they become, and every bad form with its one-line message.

import BannerCore
import Testing

@Suite("Settings: close button, action, progress")
struct InteractionSettingsTests {
    @Test func flagsBecomeTheAppearance() throws {
        let appearance = try AppearanceSettings(closeButton: "true", action: "Undo=git stash pop", progress: "0.25").appearance()
        #expect(appearance.closeButton)
        #expect(appearance.actionLabel == "Undo")
        #expect(appearance.progress == 0.25)
    }

    @Test func defaultsHaveNoButtonsAndNoBar() throws {
        let appearance = try AppearanceSettings().appearance()
        #expect(!appearance.closeButton)
        #expect(appearance.actionLabel == "")
        #expect(appearance.progress == nil)
    }

    @Test func actionSplitsLabelFromAnArgumentVector() throws {
        let action = try ActionSetting(parsing: " Open log = xdg-open  /var/log/syslog ")
        #expect(action.label == "Open log")
        #expect(action.command == ["xdg-open", "/var/log/syslog"])
        // Only the first = splits: the command may hold more.
        #expect(try ActionSetting(parsing: "Set=env A=1 run").command == ["env", "A=1", "run"])
        // No shell: quotes and variables are plain characters.
        #expect(try ActionSetting(parsing: "Say=echo '$HOME'").command == ["echo", "'$HOME'"])
    }

    @Test func actionWithoutCommandOnlyDismisses() throws {
        #expect(try ActionSetting(parsing: "Retry").command.isEmpty)
        #expect(try ActionSetting(parsing: "Retry=").command.isEmpty)
    }

    @Test(arguments: ["", "=cmd", "  =cmd", " "])
    func actionNeedsALabel(written: String) {
        #expect(throws: BannerValueError.action(written)) { try AppearanceSettings(action: written).appearance() }
    }

    @Test(arguments: ["nan", "-0.1", "1.5", "abc", "inf", "", "0.5.5"])
    func badProgressIsRefusedAsWritten(written: String) {
        #expect(throws: BannerValueError.progress(written)) { try AppearanceSettings(progress: written).appearance() }
    }

    @Test func progressMessageIsOneLine() {
        #expect(BannerValueError.progress("1.5").description == "bad progress '1.5' (a number from 0 to 1)")
    }

    @Test(arguments: ["0", "1", "0.6", "1e-1"])
    func progressFromZeroToOneIsAccepted(written: String) throws {
        #expect(try AppearanceSettings(progress: written).appearance().progress == Double(written))
    }

    @Test func closeButtonTakesTrueOrFalse() throws {
        #expect(try AppearanceSettings(closeButton: "false").appearance().closeButton == false)
        #expect(throws: BannerValueError.flag(name: "close-button", value: "yes")) {
            try AppearanceSettings(closeButton: "yes").appearance()
        }
    }

    @Test func builderTakesTheSameValues() throws {
        let appearance = try TopBannerConfigBuilder().closeButton().action("Undo").progress(1).build()
        #expect(appearance.closeButton)
        #expect(appearance.actionLabel == "Undo")
        #expect(appearance.progress == 1)
        #expect(throws: BannerValueError.progress("1.5")) { try TopBannerConfigBuilder().progress(1.5).build() }
        #expect(throws: BannerValueError.progress("nan")) { try TopBannerConfigBuilder().progress(.nan).build() }
    }

    @Test func compactKeepsButtonsAndBar() throws {
        let appearance = try TopBannerConfigBuilder().closeButton().action("Undo").progress(0.5).build().compact
        #expect(appearance.closeButton)
        #expect(appearance.actionLabel == "Undo")
        #expect(appearance.progress == 0.5)
    }

    @Test func flagsOverlayAStyleButAStyleCannotSetActionOrProgress() {
        let style = AppearanceSettings(closeButton: "true")
        let flags = AppearanceSettings(closeButton: "false", action: "Undo", progress: "0.5")
        #expect(style.overlaid(by: flags) == flags)
        let styleKeys = AppearanceSettings.styleFields.map(\.name)
        #expect(styleKeys.contains("close-button"))
        #expect(!styleKeys.contains("action"))
        #expect(!styleKeys.contains("secondary-action"))
        #expect(!styleKeys.contains("progress"))
    }

    @Test func secondActionIsTheSecondaryButton() throws {
        let appearance = try AppearanceSettings(action: "Join=call-join", secondaryAction: "Decline").appearance()
        #expect(appearance.actionLabel == "Join")
        #expect(appearance.secondaryActionLabel == "Decline")
        #expect(appearance.actionLabels == ["Join", "Decline"])
        #expect(appearance.compact.secondaryActionLabel == "Decline")
        #expect(throws: BannerValueError.action("=x")) { try AppearanceSettings(action: "Join", secondaryAction: "=x").appearance() }
    }

    @Test func secondaryActionAloneIsRefused() {
        #expect(throws: BannerValueError.secondaryActionAlone("Decline")) { try TopBannerConfigBuilder().secondaryAction("Decline").build() }
        #expect(throws: BannerValueError.secondaryActionAlone("Decline")) { try AppearanceSettings(secondaryAction: "Decline").appearance() }
        #expect("\(BannerValueError.secondaryActionAlone("Decline"))" == "secondary action 'Decline' without a primary one (the first action is the primary)")
    }

    @Test func builderKeepsEachActionsHandler() throws {
        var calls: [String] = []
        let builder = TopBannerConfigBuilder().action("Join") { calls.append("join") }.secondaryAction("Decline") { calls.append("decline") }
        builder.secondaryActionHandler?()
        builder.actionHandler?()
        #expect(calls == ["decline", "join"])
        #expect(try builder.build().actionLabels == ["Join", "Decline"])
        #expect(TopBannerConfigBuilder().action("Undo").actionHandler == nil)
    }

    @Test func anActionIsNamedByItsLabelOrItsPlace() throws {
        let two = try TopBannerConfigBuilder().action("Join").secondaryAction("Decline").build()
        #expect(two.actionButton(labelled: nil) == .action)
        #expect(two.actionButton(labelled: nil, secondary: true) == .secondaryAction)
        #expect(two.actionButton(labelled: "Decline") == .secondaryAction)
        #expect(two.actionButton(labelled: "Join") == .action)
        #expect(two.actionButton(labelled: "join") == nil)
        let one = try TopBannerConfigBuilder().action("Undo").build()
        #expect(one.actionButton(labelled: nil, secondary: true) == nil)
        #expect(TopBannerAppearance.default.actionButton(labelled: nil) == nil)
        #expect(TopBannerAppearance.default.actionLabels.isEmpty)
    }
}
