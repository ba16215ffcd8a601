// X errors never kill the process: Xlib's default handler calls exit(), so we install our own
// that records the error; callers that care check `XErrorTrap` around their requests.
// A lost connection (I/O error) cannot be survived by Xlib; it ends the process with code 69.

import CX11
import Glibc
import Synchronization

/// The last protocol error the server reported, and a count of all of them.
public enum XErrorTrap {
    private static let count = Atomic<Int>(0)
    private static let lastCode = Atomic<Int>(0)
    private static let lastRequest = Atomic<Int>(0)
    /// Errors per connection (keyed by the `Display*` address): the handler is process-wide,
    /// and one process may hold several connections.
    private static let countByDisplay = Mutex<[UInt: Int]>([:])

    /// How many protocol errors arrived since the handler was installed.
    public static var errorCount: Int { count.load(ordering: .relaxed) }

    /// `(error code, major opcode)` of the newest error, if any.
    public static var lastError: (code: Int, request: Int)? {
        errorCount == 0 ? nil : (lastCode.load(ordering: .relaxed), lastRequest.load(ordering: .relaxed))
    }

    /// How many protocol errors arrived for requests made on `display`.
    static func errorCount(on display: OpaquePointer) -> Int {
        countByDisplay.withLock { $0[UInt(bitPattern: Int(bitPattern: display))] ?? 0 }
    }

    /// Drops `display`'s count when it closes: a later connection may get the same address.
    static func forget(_ display: OpaquePointer) {
        _ = countByDisplay.withLock { $0.removeValue(forKey: UInt(bitPattern: Int(bitPattern: display))) }
    }

    /// Installs the recording handlers; idempotent.
    static func install() {
        XSetErrorHandler { display, event in
            if let event {
                XErrorTrap.lastCode.store(Int(event.pointee.error_code), ordering: .relaxed)
                XErrorTrap.lastRequest.store(Int(event.pointee.request_code), ordering: .relaxed)
            }
            if let display {
                XErrorTrap.countByDisplay.withLock { $0[UInt(bitPattern: Int(bitPattern: display)), default: 0] += 1 }
            }
            XErrorTrap.count.add(1, ordering: .relaxed)
            return 0
        }
        XSetIOErrorHandler { _ in
            let message = "window-banner: lost the connection to the X display\n"
            message.withCString { _ = write(2, $0, strlen($0)) }
            _exit(ExitStatus.displayUnavailable)
        }
    }
}

/// Exit statuses shared by the library's fatal paths and the CLI.
public enum ExitStatus {
    /// Bad usage or a bad value (EX_USAGE).
    public static let usage: Int32 = 64
    /// No display, or the display went away (EX_UNAVAILABLE).
    public static let displayUnavailable: Int32 = 69
    /// The X server refused something it should not have (EX_SOFTWARE).
    public static let internalError: Int32 = 70
}
