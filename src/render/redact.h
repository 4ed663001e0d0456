/* --redact: a report shared in a bug tracker should not name its author's account or
 * machine. */
#ifndef DLENV_RENDER_REDACT_H
#define DLENV_RENDER_REDACT_H

typedef struct dl_redaction {
    const char *home;   /* /home/ana -> ~ */
    const char *user;   /* ana -> <user> */
    const char *host;   /* ana-laptop -> <host> */
} dl_redaction;

/* A copy of text with the home directory (plain and JSON-escaped, where a path starts),
 * the host name and the user name (only in a path or before '@') replaced, in any ASCII
 * case, where each stands whole: the user "ana" in "anaconda" stays. Values shorter than 3 characters
 * are left alone: replacing "a" everywhere would destroy the text. */
char *dl_redact(const char *text, const dl_redaction *r);

/* The same on a JSON document, in string values only (keys keep their names); a value that
 * is exactly the host or the user name becomes the placeholder. */
char *dl_redact_json(const char *text, const dl_redaction *r);

#endif
