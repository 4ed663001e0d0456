/* Credentials out of URLs: "https://user:secret@host/simple" becomes
 * "https://host/simple". Every text fact passes through here on its way in
 * (facts/value.c), and every pasted line (parse/paste.c), so a password in a package's
 * direct_url.json, a saved report or a log reaches no output, --redact or not. */
#ifndef DLENV_BASE_URL_H
#define DLENV_BASE_URL_H

/* In place (the text only gets shorter): the userinfo of every URL in text (scheme "://"
 * authority up to "/", "?", "#", a space or a quote) is removed with its "@". Returns
 * text. */
char *dl_url_strip_userinfo(char *text);

#endif
