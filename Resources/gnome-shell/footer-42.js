
/** Enabled: the service is on the bus; disabled (and on logout): every banner and strut gone. */
class WindowBannerExtension {
    enable() {
        this._service = new BannerService();
    }

    disable() {
        this._service.destroy();
        this._service = null;
    }
}

/** The shell's entry point for a 42–44 extension. */
function init() {
    return new WindowBannerExtension();
}
