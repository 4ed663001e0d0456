/* --redact: a report shared in a bug tracker should not name its author's account or
 * machine. Redaction goes by structure, not by substring: a value is looked at as the
 * paths, addresses and user@host / user= tokens it holds, and only those parts change.
 * A word that happens to equal a name stays ("linux" as os.family when the host is called
 * linux; "Root cause" for the user root; /usr/lib for the user lib). */
#ifndef DLENV_RENDER_REDACT_H
#define DLENV_RENDER_REDACT_H

#include "base/str.h"

typedef struct dl_redaction {
    dl_strv homes; /* /home/ana, C:\Users\Ana -> ~ (trailing separators dropped) */
    dl_strv users; /* ana -> <user> */
    dl_strv hosts; /* ana-laptop -> <host> */
} dl_redaction;

/* Each adds one name (copied; NULL, "" and a home of "/" are ignored). A host name with a
 * domain adds its first label too. */
void dl_redaction_add_home(dl_redaction *r, const char *home);
void dl_redaction_add_user(dl_redaction *r, const char *user);
void dl_redaction_add_host(dl_redaction *r, const char *host);
void dl_redaction_free(dl_redaction *r);

/* A copy of text with, in any ASCII case:
 *   - a home directory at the start of a path -> "~" (~/venv/bin/python);
 *   - in a path, a component that is a user name -> "<user>": always where a user's folder
 *     goes (/home/NAME, /Users/NAME, C:\Users\NAME, /media/NAME), elsewhere only outside
 *     the system's trees (/usr, /lib, /etc, /opt, C:\Windows, C:\Program Files ...) and
 *     only for a name that is not also an everyday folder name (lib, bin, share, cuda ...);
 *   - a UNC path's server, a URL's host and user, NAME@HOST, user=NAME -> "<host>", "<user>".
 * Names of any length count, since only those places change. */
char *dl_redact_text(const char *text, const dl_redaction *r);

#endif
