// The EWMH strut properties as X11 carries them: `_NET_WM_STRUT_PARTIAL` (twelve cardinals:
// left, right, top, bottom, then a start/end pair for each edge) and the older `_NET_WM_STRUT`
// (the first four). The banner writes its own top strut in both forms and reads other clients'
// (panels, docks) from them; the platform-free core knows struts only as geometry (TopStrut,
// SideStrut). What is read is another client's: any count and any values, checked here.

import BannerCore

extension TopStrut {
    /// `_NET_WM_STRUT_PARTIAL`: left, right, top, bottom, then a start/end pair for each edge.
    var partial: [Int] { [0, 0, top, 0, 0, 0, 0, 0, startX, endX, 0, 0] }
    /// `_NET_WM_STRUT`, for window managers that predate the partial form: left, right, top, bottom.
    var legacy: [Int] { [0, 0, top, 0] }

    /// Another client's top strut, from its `_NET_WM_STRUT_PARTIAL` (`partial`) and
    /// `_NET_WM_STRUT` (`legacy`) as read, nil when absent: the partial form wins, as EWMH says;
    /// the legacy one spans the whole screen (`screenWidth` px). Nil when neither reserves
    /// anything at the top, or the values are malformed.
    init?(partial: [Int]?, legacy: [Int]?, screenWidth: Int) {
        if let partial, partial.count >= 12 {
            guard partial[2] > 0, partial[9] >= partial[8] else { return nil }
            self.init(top: partial[2], startX: partial[8], endX: partial[9])
        } else if let legacy, legacy.count >= 4 {
            guard legacy[2] > 0 else { return nil }
            self.init(top: legacy[2], startX: 0, endX: max(screenWidth - 1, 0))
        } else {
            return nil
        }
    }
}

extension SideStrut {
    /// Another client's left and right struts, from its `_NET_WM_STRUT_PARTIAL` (`partial`) and
    /// `_NET_WM_STRUT` (`legacy`) as read: the partial form wins, as EWMH says; the legacy one
    /// spans the whole screen's height. Struts count from the screen's edges (`screenWidth` ×
    /// `screenHeight` px). Empty when neither reserves a side, or the values are malformed.
    static func struts(partial: [Int]?, legacy: [Int]?, screenWidth: Int, screenHeight: Int) -> [SideStrut] {
        let reach: (left: Int, right: Int)
        let rows: (left: (Int, Int), right: (Int, Int))
        if let partial, partial.count >= 12 {
            reach = (partial[0], partial[1])
            rows = ((partial[4], partial[5]), (partial[6], partial[7]))
        } else if let legacy, legacy.count >= 4 {
            reach = (legacy[0], legacy[1])
            rows = ((0, screenHeight - 1), (0, screenHeight - 1))
        } else {
            return []
        }
        var found: [SideStrut] = []
        if reach.left > 0, reach.left <= screenWidth, rows.left.0 <= rows.left.1 {
            found.append(SideStrut(edge: .left, startX: 0, endX: reach.left - 1, startY: rows.left.0, endY: rows.left.1))
        }
        if reach.right > 0, reach.right <= screenWidth, rows.right.0 <= rows.right.1 {
            found.append(SideStrut(edge: .right, startX: screenWidth - reach.right, endX: screenWidth - 1, startY: rows.right.0, endY: rows.right.1))
        }
        return found
    }
}
