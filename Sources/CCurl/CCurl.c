// libcurl through dlopen: see CCurl.h for why.

#include "CCurl.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>

static struct {
    CURLcode (*global_init)(long);
    curl_version_info_data *(*version_info)(CURLversion);
    char *(*version)(void);
    CURLM *(*multi_init)(void);
    CURLMcode (*multi_cleanup)(CURLM *);
    CURLMcode (*multi_add_handle)(CURLM *, CURL *);
    CURLMcode (*multi_remove_handle)(CURLM *, CURL *);
    CURLMcode (*multi_socket_action)(CURLM *, curl_socket_t, int, int *);
    CURLMsg *(*multi_info_read)(CURLM *, int *);
    CURLMcode (*multi_setopt)(CURLM *, CURLMoption, ...);
    CURL *(*easy_init)(void);
    void (*easy_cleanup)(CURL *);
    const char *(*easy_strerror)(CURLcode);
    CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
    CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
} curl;

static int loaded;
static const char *failure;
static pthread_once_t once = PTHREAD_ONCE_INIT;

#define FIND(field, name)                                   \
    do {                                                    \
        *(void **)(&curl.field) = dlsym(library, name);     \
        if (curl.field == NULL) return "libcurl.so.4 lacks " name; \
    } while (0)

static const char *load(void) {
    void *library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        // dlerror's text lives until the next dl call: keep a copy.
        static char message[256];
        const char *error = dlerror();
        snprintf(message, sizeof message, "%s", error != NULL ? error : "cannot load libcurl.so.4");
        return message;
    }
    FIND(global_init, "curl_global_init");
    FIND(version_info, "curl_version_info");
    FIND(version, "curl_version");
    FIND(multi_init, "curl_multi_init");
    FIND(multi_cleanup, "curl_multi_cleanup");
    FIND(multi_add_handle, "curl_multi_add_handle");
    FIND(multi_remove_handle, "curl_multi_remove_handle");
    FIND(multi_socket_action, "curl_multi_socket_action");
    FIND(multi_info_read, "curl_multi_info_read");
    FIND(multi_setopt, "curl_multi_setopt");
    FIND(easy_init, "curl_easy_init");
    FIND(easy_cleanup, "curl_easy_cleanup");
    FIND(easy_strerror, "curl_easy_strerror");
    FIND(easy_setopt, "curl_easy_setopt");
    FIND(easy_getinfo, "curl_easy_getinfo");
    // CURLOPT_QUICK_EXIT (7.87.0) lets a check end while its name lookup still runs.
    curl_version_info_data *info = curl.version_info(CURLVERSION_NOW);
    if (info == NULL || info->version_num < 0x075700) return "libcurl 7.87.0 or later is needed";
    if (curl.global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) return "curl_global_init failed";
    loaded = 1;
    return NULL;
}

static void load_once(void) { failure = load(); }

const char *ccurl_load(void) {
    // Once per process, whichever thread asks first (the test suites check in parallel).
    pthread_once(&once, load_once);
    return failure;
}

const char *ccurl_version(void) { return loaded ? curl.version() : "libcurl (not loaded)"; }

CURLM *ccurl_multi_init(void) { return curl.multi_init(); }
CURLMcode ccurl_multi_cleanup(CURLM *multi) { return curl.multi_cleanup(multi); }
CURLMcode ccurl_multi_add_handle(CURLM *multi, CURL *easy) { return curl.multi_add_handle(multi, easy); }
CURLMcode ccurl_multi_remove_handle(CURLM *multi, CURL *easy) { return curl.multi_remove_handle(multi, easy); }

CURLMcode ccurl_multi_socket_action(CURLM *multi, curl_socket_t socket, int events, int *running) {
    return curl.multi_socket_action(multi, socket, events, running);
}

CURLMsg *ccurl_multi_info_read(CURLM *multi, int *queued) { return curl.multi_info_read(multi, queued); }

CURLMcode ccurl_multi_set_socket_function(CURLM *multi, curl_socket_callback function, void *data) {
    CURLMcode code = curl.multi_setopt(multi, CURLMOPT_SOCKETFUNCTION, function);
    return code != CURLM_OK ? code : curl.multi_setopt(multi, CURLMOPT_SOCKETDATA, data);
}

CURLMcode ccurl_multi_set_timer_function(CURLM *multi, curl_multi_timer_callback function, void *data) {
    CURLMcode code = curl.multi_setopt(multi, CURLMOPT_TIMERFUNCTION, function);
    return code != CURLM_OK ? code : curl.multi_setopt(multi, CURLMOPT_TIMERDATA, data);
}

CURL *ccurl_easy_init(void) { return curl.easy_init(); }
void ccurl_easy_cleanup(CURL *easy) { curl.easy_cleanup(easy); }
const char *ccurl_easy_strerror(CURLcode code) { return curl.easy_strerror(code); }

CURLcode ccurl_easy_setopt_long(CURL *easy, CURLoption option, long value) { return curl.easy_setopt(easy, option, value); }
CURLcode ccurl_easy_setopt_offset(CURL *easy, CURLoption option, curl_off_t value) { return curl.easy_setopt(easy, option, value); }
CURLcode ccurl_easy_setopt_pointer(CURL *easy, CURLoption option, void *value) { return curl.easy_setopt(easy, option, value); }

CURLcode ccurl_easy_setopt_write_function(CURL *easy, CURLoption option, curl_write_callback function) {
    return curl.easy_setopt(easy, option, function);
}

CURLcode ccurl_easy_getinfo_long(CURL *easy, CURLINFO info, long *value) { return curl.easy_getinfo(easy, info, value); }
CURLcode ccurl_easy_getinfo_string(CURL *easy, CURLINFO info, char **value) { return curl.easy_getinfo(easy, info, value); }
