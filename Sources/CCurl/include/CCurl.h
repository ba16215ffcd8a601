// CCurl: the few libcurl calls the monitor's HTTP check makes, loaded with dlopen(3) the first
// time a check runs. window-banner-full is also the owner process, which never checks anything:
// linking libcurl would load it and the 25 libraries it needs (OpenSSL, GnuTLS, Kerberos, LDAP…)
// into every owner, about 6 MiB of resident memory for nothing. The types and constants come
// from <curl/curl.h> (libcurl4-openssl-dev); the functions are reached through pointers found
// by dlsym. curl_easy_setopt and curl_multi_setopt are variadic, which Swift cannot call: each
// kind of value has a wrapper of its own.

#ifndef CCURL_H
#define CCURL_H

#include <curl/curl.h>

/// Loads libcurl.so.4 and runs curl_global_init once; NULL when it is ready, else why not
/// (dlerror's message, or a libcurl older than 7.87.0, the first with CURLOPT_QUICK_EXIT).
/// The work is done once per process; later calls give the same result.
const char *ccurl_load(void);

/// curl_version(): "libcurl/7.88.1 OpenSSL/3.0.… …".
const char *ccurl_version(void);

CURLM *ccurl_multi_init(void);
CURLMcode ccurl_multi_cleanup(CURLM *multi);
CURLMcode ccurl_multi_add_handle(CURLM *multi, CURL *easy);
CURLMcode ccurl_multi_remove_handle(CURLM *multi, CURL *easy);
CURLMcode ccurl_multi_socket_action(CURLM *multi, curl_socket_t socket, int events, int *running);
CURLMsg *ccurl_multi_info_read(CURLM *multi, int *queued);
/// CURLMOPT_SOCKETFUNCTION and CURLMOPT_SOCKETDATA.
CURLMcode ccurl_multi_set_socket_function(CURLM *multi, curl_socket_callback function, void *data);
/// CURLMOPT_TIMERFUNCTION and CURLMOPT_TIMERDATA.
CURLMcode ccurl_multi_set_timer_function(CURLM *multi, curl_multi_timer_callback function, void *data);

CURL *ccurl_easy_init(void);
void ccurl_easy_cleanup(CURL *easy);
const char *ccurl_easy_strerror(CURLcode code);
CURLcode ccurl_easy_setopt_long(CURL *easy, CURLoption option, long value);
CURLcode ccurl_easy_setopt_offset(CURL *easy, CURLoption option, curl_off_t value);
/// A string or object pointer option (libcurl copies strings).
CURLcode ccurl_easy_setopt_pointer(CURL *easy, CURLoption option, void *value);
/// CURLOPT_WRITEFUNCTION or CURLOPT_HEADERFUNCTION.
CURLcode ccurl_easy_setopt_write_function(CURL *easy, CURLoption option, curl_write_callback function);
CURLcode ccurl_easy_getinfo_long(CURL *easy, CURLINFO info, long *value);
CURLcode ccurl_easy_getinfo_string(CURL *easy, CURLINFO info, char **value);

#endif
