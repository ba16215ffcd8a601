// X errors never kill the process: Xlib's default handler calls exit(), so we install our own
// that counts the error against its connection (`X11Display.protocolErrorCount`) and keeps
// the last few, which the display reports from its loop (`X11Display.onProtocolError`:
// the owner logs them). A lost connection (I/O error) cannot be survived by Xlib; it ends the
// process with code 69.

import BannerCore
import BannerRuntime
import CX11
import Glibc
import Synchronization

/// One protocol error the X server reported: which request failed, why, and on what.
public struct XProtocolError: Sendable, Equatable, CustomStringConvertible {
    /// The failed request's major opcode (core requests below 128, extensions above).
    public var requestCode: UInt8
    /// The extension request's minor opcode (0 for core requests).
    public var minorCode: UInt8
    /// The error code (`BadWindow` is 3).
    public var errorCode: UInt8
    /// The resource (window, pixmap, picture …) the request named.
    public var resource: UInt
    /// The request's sequence number on its connection.
    public var serial: UInt
    /// The error's name as Xlib gives it: `BadWindow (invalid Window parameter)`.
    public var errorName: String
    /// The request's name: `X_ChangeProperty`, `RenderComposite`; the opcodes when unknown.
    public var requestName: String

    /// How many errors of a burst (those that arrive between two turns of the loop) are
    /// reported one by one; the rest as a count.
    public static var reportedOneByOne: Int { XErrorTrap.keptErrors }

    /// `X error BadWindow (invalid Window parameter) on X_ChangeProperty (18.0), resource 0x200003, serial 512`.
    public var description: String {
        let resourceHex = "0x" + String(resource, radix: 16)
        return "X error \(errorName) (code \(errorCode)) on \(requestName) (request \(requestCode).\(minorCode)), resource \(resourceHex), serial \(serial)"
    }
}

/// Counts the protocol errors the server reports, per connection, and keeps the last few for
/// their connection's loop to report.
enum XErrorTrap {
    /// One connection's errors (keyed by the `Display*` address): the handler is process-wide,
    /// and one process may hold several connections.
    private struct Record {
        var count = 0
        /// Not yet reported, oldest first: at most ``keptErrors``.
        var unreported: [RawError] = []
        /// Errors beyond those kept since the last report.
        var dropped = 0
    }

    /// The codes of one error, as the handler receives them.
    struct RawError: Sendable {
        var requestCode: UInt8
        var minorCode: UInt8
        var errorCode: UInt8
        var resource: UInt
        var serial: UInt
    }

    private static let records = Mutex<[UInt: Record]>([:])
    /// A storm of errors (one per frame, say) is reported as the first few and a count.
    static let keptErrors = 16

    private static func key(_ display: OpaquePointer) -> UInt { UInt(bitPattern: Int(bitPattern: display)) }

    /// How many protocol errors arrived for requests made on `display`.
    static func errorCount(on display: OpaquePointer) -> Int {
        records.withLock { $0[key(display)]?.count ?? 0 }
    }

    /// The errors not reported yet for `display`, and how many more arrived beyond those kept.
    static func takeUnreported(on display: OpaquePointer) -> (errors: [RawError], dropped: Int) {
        records.withLock { records in
            guard let record = records[key(display)], !record.unreported.isEmpty || record.dropped > 0 else { return ([], 0) }
            records[key(display)]?.unreported = []
            records[key(display)]?.dropped = 0
            return (record.unreported, record.dropped)
        }
    }

    /// `error` with the names Xlib's error database gives its code and request; the request
    /// of an extension is looked up by the extension's name, which `extensionNames` maps from
    /// its major opcode.
    static func named(_ error: RawError, on display: OpaquePointer, extensionNames: [UInt8: String]) -> XProtocolError {
        func databaseText(_ name: String, _ message: String, fallback: String) -> String {
            var buffer = [CChar](repeating: 0, count: 256)
            XGetErrorDatabaseText(display, name, message, fallback, &buffer, Int32(buffer.count))
            let text = String(string(buffer).drop(while: { $0 == " " }))
            return text.isEmpty ? fallback : text
        }
        var buffer = [CChar](repeating: 0, count: 256)
        XGetErrorText(display, Int32(error.errorCode), &buffer, Int32(buffer.count))
        let errorName = string(buffer)
        let opcodes = "\(error.requestCode).\(error.minorCode)"
        let requestName: String
        if error.requestCode < 128 {
            requestName = databaseText("XRequest", "\(error.requestCode)", fallback: "request \(opcodes)")
        } else if let extensionName = extensionNames[error.requestCode] {
            requestName = databaseText("XRequest", "\(extensionName).\(error.minorCode)", fallback: "\(extensionName) request \(error.minorCode)")
        } else {
            requestName = "extension request \(opcodes)"
        }
        return XProtocolError(
            requestCode: error.requestCode, minorCode: error.minorCode, errorCode: error.errorCode, resource: error.resource,
            serial: error.serial, errorName: errorName.isEmpty ? "error \(error.errorCode)" : errorName, requestName: requestName)
    }

    private static func string(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Drops `display`'s record when it closes: a later connection may get the same address.
    static func forget(_ display: OpaquePointer) {
        _ = records.withLock { $0.removeValue(forKey: key(display)) }
    }

    /// Installs the recording handlers; idempotent.
    static func install() {
        XSetErrorHandler { display, event in
            // Only recorded here: Xlib forbids requests from inside the handler, so names are
            // looked up when the loop reports the error.
            if let display {
                XErrorTrap.records.withLock { records in
                    var record = records[XErrorTrap.key(display)] ?? Record()
                    record.count += 1
                    if let event, record.unreported.count < XErrorTrap.keptErrors {
                        let error = event.pointee
                        record.unreported.append(RawError(
                            requestCode: error.request_code, minorCode: error.minor_code, errorCode: error.error_code,
                            resource: UInt(error.resourceid), serial: UInt(error.serial)))
                    } else {
                        record.dropped += 1
                    }
                    records[XErrorTrap.key(display)] = record
                }
            }
            return 0
        }
        XSetIOErrorHandler { _ in DisplayLoss.end("lost the connection to the X display") }
    }
}
