// A thin, typed layer over the sd-bus message calls every bus client here needs: appending
// D-Bus values to a call, a reply or a signal, and reading arguments. Each function names the
// sd-bus call it wraps; only sd-bus's non-variadic calls are used, which Swift calls directly.

import CSDBus

/// A message being built or read (an `sd_bus_message *`), not owned.
public struct BusMessage {
    /// The `sd_bus_message *`.
    public let pointer: OpaquePointer

    /// Wraps `pointer`, which the caller keeps owning.
    public init(pointer: OpaquePointer) { self.pointer = pointer }

    static func type(_ code: Character) -> CChar { CChar(UInt8(ascii: code.unicodeScalars.first ?? "s")) }

    /// `sd_bus_message_append_basic` of a string (`s`) or an object path (`o`).
    public func append(_ string: String, as code: Character = "s") {
        _ = string.withCString { sd_bus_message_append_basic(pointer, Self.type(code), $0) }
    }

    /// `sd_bus_message_append_basic` of an `i`.
    public func append(_ value: Int32) {
        var value = value
        _ = sd_bus_message_append_basic(pointer, Self.type("i"), &value)
    }

    /// `sd_bus_message_append_basic` of a `u`.
    public func append(_ value: UInt32) {
        var value = value
        _ = sd_bus_message_append_basic(pointer, Self.type("u"), &value)
    }

    /// `sd_bus_message_append_basic` of a `b`.
    public func append(_ value: Bool) {
        var value: Int32 = value ? 1 : 0
        _ = sd_bus_message_append_basic(pointer, Self.type("b"), &value)
    }

    /// `sd_bus_message_append_basic` of a `d`.
    public func append(_ value: Double) {
        var value = value
        _ = sd_bus_message_append_basic(pointer, Self.type("d"), &value)
    }

    /// `sd_bus_message_append_array` of bytes: an `ay` holding `bytes`.
    public func append(bytes: UnsafeRawBufferPointer) {
        _ = sd_bus_message_append_array(pointer, Self.type("y"), bytes.baseAddress, bytes.count)
    }

    /// `sd_bus_message_open_container` … `close_container` around `body`: an array (`a`), a
    /// struct (`r`), a dictionary entry (`e`) or a variant (`v`) holding `contents`.
    public func inContainer(_ code: Character, _ contents: String, _ body: () -> Void) {
        _ = sd_bus_message_open_container(pointer, Self.type(code), contents)
        body()
        _ = sd_bus_message_close_container(pointer)
    }

    /// `sd_bus_message_read_basic` of a string; nil when the next argument is not one.
    public func readString() -> String? {
        var value: UnsafePointer<CChar>?
        guard sd_bus_message_read_basic(pointer, Self.type("s"), &value) > 0, let value else { return nil }
        return String(cString: value)
    }

    /// `sd_bus_message_read_basic` of an `i` (or a `u`, with `code`).
    public func readInt32(_ code: Character = "i") -> Int32? {
        var value: Int32 = 0
        guard sd_bus_message_read_basic(pointer, Self.type(code), &value) > 0 else { return nil }
        return value
    }

    /// `sd_bus_message_read_basic` of a `d`.
    public func readDouble() -> Double? {
        var value = 0.0
        guard sd_bus_message_read_basic(pointer, Self.type("d"), &value) > 0 else { return nil }
        return value
    }

    /// `sd_bus_message_read_basic` of a `b`.
    public func readBool() -> Bool? {
        var value: Int32 = 0
        guard sd_bus_message_read_basic(pointer, Self.type("b"), &value) > 0 else { return nil }
        return value != 0
    }

    /// `sd_bus_message_enter_container` … `exit_container` around `body`: false, reading
    /// nothing, when the next argument is not that container (or it is an empty array).
    public func entering(_ code: Character, _ contents: String, _ body: () -> Void) -> Bool {
        guard sd_bus_message_enter_container(pointer, Self.type(code), contents) > 0 else { return false }
        body()
        _ = sd_bus_message_exit_container(pointer)
        return true
    }

    /// `sd_bus_message_skip` of the next `types`: false when they are not next.
    public func skip(_ types: String) -> Bool {
        sd_bus_message_skip(pointer, types) >= 0
    }

    /// A variant holding an `i`, read and left; nil when it holds something else.
    public func readVariantInt32() -> Int32? {
        guard sd_bus_message_enter_container(pointer, Self.type("v"), "i") > 0 else { return nil }
        defer { _ = sd_bus_message_exit_container(pointer) }
        return readInt32()
    }
}
