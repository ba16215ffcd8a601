
/** Enabled: the service is on the bus; disabled (and on logout): every banner and strut gone. */
export default class WindowBannerExtension extends Extension {
    enable() {
        this._service = new BannerService();
    }

    disable() {
        this._service.destroy();
        this._service = null;
    }
}
