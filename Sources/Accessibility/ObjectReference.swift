// AT-SPI's object references, `(so)`: the one D-Bus value of the accessibility tree that is
// not a basic type.

import SDBus

/// Where an accessible object lives: the bus name of the application that serves it and its
/// object path. AT-SPI's `(so)`.
struct ObjectReference: Equatable {
    var bus: String
    var path: String

    /// The reference AT-SPI uses for "no object" (a banner's missing child, the desktop's parent).
    static let none = ObjectReference(bus: "", path: "/org/a11y/atspi/null")
}

extension BusMessage {
    /// An AT-SPI object reference, `(so)`: the bus name that serves it and its path.
    func appendReference(_ reference: ObjectReference) {
        inContainer("r", "so") {
            append(reference.bus)
            append(reference.path, as: "o")
        }
    }
}
