// A user's groups as the group database has them (getgrouplist(3)): their ids for a process
// started as them (window-banner-full's SessionRouting), their names for whom a broadcast is meant
// (BannerMonitor's SessionNotices, `broadcast list`).

import Glibc

package enum UserGroups {
    /// The groups of `user`, their primary group among them.
    package static func ids(of user: passwd) -> [gid_t] {
        var count: Int32 = 64
        var groups = [gid_t](repeating: 0, count: Int(count))
        if getgrouplist(user.pw_name, user.pw_gid, &groups, &count) < 0 {
            // Too many for the first guess: count now says how many there are.
            groups = [gid_t](repeating: 0, count: Int(count))
            _ = getgrouplist(user.pw_name, user.pw_gid, &groups, &count)
        }
        return Array(groups.prefix(Int(max(0, min(count, Int32(groups.count))))))
    }

    /// The names of `user`'s groups (a group the database cannot name is left out).
    package static func names(of user: passwd) -> [String] {
        ids(of: user).compactMap { id in getgrgid(id).map { String(cString: $0.pointee.gr_name) } }
    }
}
