// Which languages the locale variables ask for, by gettext's precedence, and which of them are
// written right to left.

import BannerCore
import Testing

@Suite("UserLocale")
struct UserLocaleTests {
    @Test func langAloneNamesTheLanguageWithoutItsCodeset() {
        let locale = UserLocale(environment: ["LANG": "pt_BR.UTF-8"])
        #expect(locale.messagesLocale == "pt_BR.UTF-8")
        #expect(locale.languages == ["pt_BR"])
        #expect(!locale.isRightToLeft)
    }

    @Test func lcAllWinsOverLcMessagesWhichWinsOverLang() {
        #expect(UserLocale(environment: ["LC_ALL": "fr_FR.UTF-8", "LC_MESSAGES": "de_DE.UTF-8", "LANG": "es_ES.UTF-8"]).languages == ["fr_FR"])
        #expect(UserLocale(environment: ["LC_MESSAGES": "de_DE.UTF-8", "LANG": "es_ES.UTF-8"]).languages == ["de_DE"])
        // Empty counts as unset, as in POSIX.
        #expect(UserLocale(environment: ["LC_ALL": "", "LC_MESSAGES": "", "LANG": "ja_JP.UTF-8"]).messagesLocale == "ja_JP.UTF-8")
    }

    @Test func languageListComesFirstThenTheLocalesOwnLanguage() {
        let locale = UserLocale(environment: ["LANGUAGE": "pt_BR:pt:en", "LANG": "de_DE.UTF-8"])
        #expect(locale.languages == ["pt_BR", "pt", "en", "de_DE"])
        #expect(UserLocale(environment: ["LANGUAGE": "de::de", "LANG": "de.UTF-8"]).languages == ["de"])
    }

    @Test func theCLocaleIgnoresLanguageAndTranslatesNothing() {
        #expect(UserLocale(environment: [:]).languages.isEmpty)
        #expect(UserLocale(environment: [:]).messagesLocale == "C")
        #expect(UserLocale(environment: ["LANGUAGE": "de", "LANG": "C"]).languages.isEmpty)
        #expect(UserLocale(environment: ["LANGUAGE": "de", "LC_ALL": "POSIX"]).languages.isEmpty)
        // C.UTF-8 is a locale of its own: gettext honours LANGUAGE under it.
        #expect(UserLocale(environment: ["LANGUAGE": "he", "LANG": "C.UTF-8"]).languages == ["he"])
        #expect(UserLocale(environment: ["LANG": "C.UTF-8"]).languages.isEmpty)
    }

    @Test func modifiersStayAndCodesetsGo() {
        #expect(UserLocale(environment: ["LANG": "de_DE.UTF-8@euro"]).languages == ["de_DE@euro"])
        #expect(UserLocale(environment: ["LANG": "sr_RS@latin"]).languages == ["sr_RS@latin"])
    }

    @Test(arguments: ["ar_EG.UTF-8", "he_IL.UTF-8", "fa_IR.UTF-8", "ur_PK.UTF-8", "ps_AF.UTF-8", "sd_PK.UTF-8", "ug_CN.UTF-8", "yi_US.UTF-8", "ckb_IQ.UTF-8", "dv_MV.UTF-8", "pa_PK.UTF-8", "ar"])
    func rightToLeftLanguages(lang: String) {
        #expect(UserLocale(environment: ["LANG": lang]).isRightToLeft)
    }

    @Test(arguments: ["de_DE.UTF-8", "hi_IN.UTF-8", "ja_JP.UTF-8", "zh_CN.UTF-8", "pa_IN.UTF-8", "sd_IN.UTF-8@devanagari", "C", "C.UTF-8", "en"])
    func leftToRightLanguages(lang: String) {
        #expect(!UserLocale(environment: ["LANG": lang]).isRightToLeft)
    }

    @Test func theFirstLanguageDecidesTheDirection() {
        #expect(UserLocale(environment: ["LANGUAGE": "he:en", "LANG": "en_US.UTF-8"]).isRightToLeft)
        #expect(!UserLocale(environment: ["LANGUAGE": "en:he", "LANG": "he_IL.UTF-8"]).isRightToLeft)
    }

    @Test func onlyTheLocaleVariablesAreForwarded() {
        let environment = ["LANG": "ru_RU.UTF-8", "LANGUAGE": "ru", "HOME": "/home/anna", "LC_TIME": "en_GB.UTF-8", "DISPLAY": ":0"]
        #expect(UserLocale.variables(in: environment) == ["LANG": "ru_RU.UTF-8", "LANGUAGE": "ru"])
    }
}
