/* --redact: a report shared in a bug tracker should not name its author's account or
 * machine. */
#ifndef DLENV_RENDER_REDACT_H
#define DLENV_RENDER_REDACT_H

typedef struct dl_redaction {
    const char *home;   /* /home/ana -> ~ */
    const char *user;   /* ana -> <user> */
    const char *host;   /* ana-laptop -> <host> */
} dl_redaction;

/* A copy of text with each value replaced; the home directory first, since it usually
 * contains the user name. Values shorter than 3 characters are left alone: replacing "a"
 * everywhere would destroy the text. */
char *dl_redact(const char *text, const dl_redaction *r);

#endif
