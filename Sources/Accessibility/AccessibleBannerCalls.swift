// The owner's answers to a screen reader's calls on its accessible objects (AccessibleBanners.swift
// keeps the objects): `Accessible` (name, role, children, states, attributes), `Application`,
// `Action` (a button's one action, which presses it) and `Properties`, each answered at once
// from the owner's loop; an object that is gone is an `UnknownObject` error.

import CSDBus
import SDBus

extension AccessibleBanners {
    /// Answers one call; 0 leaves it to sd-bus (an unknown method or object error).
    func answer(_ call: BusMessage) -> Int32 {
        guard sd_bus_message_is_method_call(call.pointer, nil, nil) > 0,
              let pathPointer = sd_bus_message_get_path(call.pointer),
              let interfacePointer = sd_bus_message_get_interface(call.pointer),
              let memberPointer = sd_bus_message_get_member(call.pointer) else { return 0 }
        let interface = String(cString: interfacePointer)
        let member = String(cString: memberPointer)
        guard let node = node(at: String(cString: pathPointer)) else {
            return fail(call, "org.freedesktop.DBus.Error.UnknownObject", "no such accessible object (the banner is gone)")
        }
        switch interface {
        case "org.freedesktop.DBus.Properties": return properties(call, member, node)
        case "org.a11y.atspi.Accessible": return accessible(call, member, node)
        case "org.a11y.atspi.Action": return action(call, member, node)
        case "org.a11y.atspi.Application" where member == "GetLocale": return reply(call) { $0.append(locale) }
        default: return 0
        }
    }

    private func accessible(_ call: BusMessage, _ member: String, _ node: Node) -> Int32 {
        switch member {
        case "GetRole": return reply(call) { $0.append(role(of: node).rawValue) }
        case "GetRoleName", "GetLocalizedRoleName": return reply(call) { $0.append(role(of: node).name) }
        case "GetState": return reply(call) { message in message.inContainer("a", "u") { states(of: node).forEach(message.append) } }
        case "GetInterfaces": return reply(call) { message in message.inContainer("a", "s") { interfaces(of: node).forEach { message.append($0) } } }
        case "GetIndexInParent": return reply(call) { $0.append(indexInParent(of: node)) }
        case "GetApplication": return reply(call) { $0.appendReference(reference(Self.rootPath)) }
        case "GetRelationSet": return reply(call) { $0.inContainer("a", "(ua(so))") {} }
        case "GetAttributes":
            return reply(call) { message in
                message.inContainer("a", "{ss}") {
                    for (key, value) in attributes(of: node) {
                        message.inContainer("e", "ss") {
                            message.append(key)
                            message.append(value)
                        }
                    }
                }
            }
        case "GetChildren":
            return reply(call) { message in message.inContainer("a", "(so)") { children(of: node).forEach(message.appendReference) } }
        case "GetChildAtIndex":
            let index = call.readInt32().map(Int.init) ?? -1
            let children = children(of: node)
            return reply(call) { $0.appendReference(children.indices.contains(index) ? children[index] : .none) }
        default: return 0
        }
    }

    private func action(_ call: BusMessage, _ member: String, _ node: Node) -> Int32 {
        let actions = actions(of: node)
        guard !actions.isEmpty else { return 0 }
        switch member {
        case "GetActions":
            return reply(call) { message in
                message.inContainer("a", "(sss)") {
                    for _ in actions {
                        message.inContainer("r", "sss") {
                            message.append(Self.actionName)
                            message.append(name(of: node))
                            message.append("")
                        }
                    }
                }
            }
        case "GetName", "GetLocalizedName", "GetDescription", "GetKeyBinding":
            let index = call.readInt32().map(Int.init) ?? -1
            guard actions.indices.contains(index) else { return fail(call, "org.freedesktop.DBus.Error.InvalidArgs", "no action \(index)") }
            let text = switch member {
            case "GetDescription": name(of: node)
            case "GetKeyBinding": ""
            default: Self.actionName
            }
            return reply(call) { $0.append(text) }
        case "DoAction":
            let index = call.readInt32().map(Int.init) ?? -1
            let banner: AccessibleBanner? = switch node {
            case .banner(let banner, _), .button(_, _, let banner): banner
            case .root: nil
            }
            // Answered first: the click may end the banner, and the caller should not wait on it.
            let done = actions.indices.contains(index) && banner != nil
            let result = reply(call) { $0.append(done) }
            if done, let banner { _ = onAction(banner.id, actions[index]) }
            return result
        default: return 0
        }
    }

    /// The name AT-SPI clients know every action here by, as toolkits call a button's press.
    private static let actionName = "click"

    private func properties(_ call: BusMessage, _ member: String, _ node: Node) -> Int32 {
        guard let interface = call.readString() else { return 0 }
        switch member {
        case "Get":
            guard let name = call.readString(), let value = property(interface, name, of: node) else {
                return fail(call, "org.freedesktop.DBus.Error.UnknownProperty", "no such property")
            }
            return reply(call) { message in message.inContainer("v", value.signature) { value.append(message) } }
        case "GetAll":
            let names = switch interface {
            case "org.a11y.atspi.Accessible": ["Name", "Description", "Parent", "ChildCount", "Locale", "AccessibleId", "HelpText"]
            case "org.a11y.atspi.Application": ["ToolkitName", "Version", "AtspiVersion", "Id"]
            case "org.a11y.atspi.Action": ["NActions"]
            default: [String]()
            }
            return reply(call) { message in
                message.inContainer("a", "{sv}") {
                    for name in names {
                        guard let value = property(interface, name, of: node) else { continue }
                        message.inContainer("e", "sv") {
                            message.append(name)
                            message.inContainer("v", value.signature) { value.append(message) }
                        }
                    }
                }
            }
        case "Set":
            // The registry tells us our id once it embedded us; nothing else is writable.
            guard interface == "org.a11y.atspi.Application", call.readString() == "Id", let id = call.readVariantInt32() else {
                return fail(call, "org.freedesktop.DBus.Error.PropertyReadOnly", "read-only property")
            }
            applicationID = id
            return reply(call) { _ in }
        default: return 0
        }
    }

    /// A property's value, with its D-Bus signature.
    private struct Value {
        var signature: String
        var append: (BusMessage) -> Void
    }

    private func property(_ interface: String, _ name: String, of node: Node) -> Value? {
        let string = { (text: String) in Value(signature: "s") { $0.append(text) } }
        switch (interface, name) {
        case ("org.a11y.atspi.Accessible", "Name"): return string(self.name(of: node))
        case ("org.a11y.atspi.Accessible", "Description"): return string(description(of: node))
        case ("org.a11y.atspi.Accessible", "Locale"): return string(locale)
        case ("org.a11y.atspi.Accessible", "AccessibleId"), ("org.a11y.atspi.Accessible", "HelpText"): return string("")
        case ("org.a11y.atspi.Accessible", "Parent"):
            let parent = parent(of: node)
            return Value(signature: "(so)") { $0.appendReference(parent) }
        case ("org.a11y.atspi.Accessible", "ChildCount"):
            let count = Int32(children(of: node).count)
            return Value(signature: "i") { $0.append(count) }
        case ("org.a11y.atspi.Action", "NActions"):
            let count = Int32(actions(of: node).count)
            return Value(signature: "i") { $0.append(count) }
        case ("org.a11y.atspi.Application", _) where { if case .root = node { true } else { false } }():
            switch name {
            case "ToolkitName": return string("WindowBanner")
            case "Version": return string(version)
            case "AtspiVersion": return string("2.1")
            case "Id":
                let id = applicationID
                return Value(signature: "i") { $0.append(id) }
            default: return nil
            }
        default: return nil
        }
    }

    /// `sd_bus_message_new_method_return` with what `body` appends, sent; 1 (handled).
    private func reply(_ call: BusMessage, _ body: (BusMessage) -> Void) -> Int32 {
        var created: OpaquePointer?
        guard sd_bus_message_new_method_return(call.pointer, &created) >= 0, let reply = created else { return 0 }
        defer { sd_bus_message_unref(reply) }
        body(BusMessage(pointer: reply))
        _ = sd_bus_send(bus, reply, nil)
        return 1
    }

    /// `sd_bus_reply_method_error` with the error `name`; 1 (handled).
    private func fail(_ call: BusMessage, _ name: String, _ text: String) -> Int32 {
        var error = sd_bus_error()
        defer { sd_bus_error_free(&error) }
        _ = sd_bus_error_set(&error, name, text)
        _ = sd_bus_reply_method_error(call.pointer, &error)
        return 1
    }
}
