// The start-up ladder's Foundation rung: the Swift hello, linked against Foundation (and so
// FoundationEssentials, FoundationInternationalization and ICU), as window-banner is.
import Foundation

print(URL(fileURLWithPath: "/hello").lastPathComponent)
