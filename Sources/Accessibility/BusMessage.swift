// A thin, typed layer over the sd-bus message calls the AT-SPI objects need: appending D-Bus
// values to a reply or a signal, and reading a call's arguments. Each function names the sd-bus
// call it wraps; only sd-bus's non-variadic calls are used, which Swift calls directly.

import CSDBus

/// A message being built or read (an `sd_bus_message *`), not owned.
struct BusMessage {
    let pointer: OpaquePointer

    private static func type(_ code: Character) -> CChar { CChar(UInt8(ascii: code.unicodeScalars.first ?? "s")) }

    /// `sd_bus_message_append_basic` of a string (`s`) or an object path (`o`).
    func append(_ string: String, as code: Character = "s") {
        _ = string.withCString { sd_bus_message_append_basic(pointer, Self.type(code), $0) }
    }

    /// `sd_bus_message_append_basic` of an `i`.
    func append(_ value: Int32) {
        var value = value
        _ = sd_bus_message_append_basic(pointer, Self.type("i"), &value)
    }

    /// `sd_bus_message_append_basic` of a `u`.
    func append(_ value: UInt32) {
        var value = value
        _ = sd_bus_message_append_basic(pointer, Self.type("u"), &value)
    }

    /// `sd_bus_message_append_basic` of a `b`.
    func append(_ value: Bool) {
        var value: Int32 = value ? 1 : 0
        _ = sd_bus_message_append_basic(pointer, Self.type("b"), &value)
    }

    /// An AT-SPI object reference, `(so)`: the bus name that serves it and its path.
    func appendReference(_ reference: ObjectReference) {
        inContainer("r", "so") {
            append(reference.bus)
            append(reference.path, as: "o")
        }
    }

    /// `sd_bus_message_open_container` … `close_container` around `body`: an array (`a`), a
    /// struct (`r`), a dictionary entry (`e`) or a variant (`v`) holding `contents`.
    func inContainer(_ code: Character, _ contents: String, _ body: () -> Void) {
        _ = sd_bus_message_open_container(pointer, Self.type(code), contents)
        body()
        _ = sd_bus_message_close_container(pointer)
    }

    /// `sd_bus_message_read_basic` of a string; nil when the next argument is not one.
    func readString() -> String? {
        var value: UnsafePointer<CChar>?
        guard sd_bus_message_read_basic(pointer, Self.type("s"), &value) > 0, let value else { return nil }
        return String(cString: value)
    }

    /// `sd_bus_message_read_basic` of an `i` (or a `u`, with `code`).
    func readInt32(_ code: Character = "i") -> Int32? {
        var value: Int32 = 0
        guard sd_bus_message_read_basic(pointer, Self.type(code), &value) > 0 else { return nil }
        return value
    }

    /// A variant holding an `i`, read and left; nil when it holds something else.
    func readVariantInt32() -> Int32? {
        guard sd_bus_message_enter_container(pointer, Self.type("v"), "i") > 0 else { return nil }
        defer { _ = sd_bus_message_exit_container(pointer) }
        return readInt32()
    }
}

/// Where an accessible object lives: the bus name of the application that serves it and its
/// object path. AT-SPI's `(so)`.
struct ObjectReference: Equatable {
    var bus: String
    var path: String

    /// The reference AT-SPI uses for "no object" (a banner's missing child, the desktop's parent).
    static let none = ObjectReference(bus: "", path: "/org/a11y/atspi/null")
}
