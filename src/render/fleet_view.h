/* `dlenv fleet check`'s views for health checkers: JSON, a node_exporter textfile
 * (Prometheus text format), a node-feature-discovery feature file and one NHC line. Each
 * reads the doctor's facts, findings and view; the clock is read by the command, not here. */
#ifndef DLENV_RENDER_FLEET_VIEW_H
#define DLENV_RENDER_FLEET_VIEW_H

#include "render/doctor_view.h"
#include "render/verify_view.h"
#include "rules/rules.h"

typedef struct dl_fleet_input {
    const dl_facts *facts;
    const dl_findings *findings;
    const dl_doctor_view *view;
    long long now;             /* seconds since 1970, when the check ran */
    long long expiry_s;        /* nfd: how long the labels hold after now */
    const dl_verify_view *measured; /* prom: verify's figures from --snapshot; NULL: none */
    long long measured_at;     /* when they were measured (seconds since 1970); -1 unknown */
} dl_fleet_input;

/* The node's state in health-checker words: ok (no failure; warnings and information
 * allowed), warning, failure or cannot_judge. */
const char *dl_fleet_status(const dl_fleet_input *in);
/* What the dlenv_info metric and the NFD labels name; each NULL when unknown. The strings
 * are the caller's to free. */
typedef struct dl_fleet_info {
    char *driver;              /* 550.54.14 */
    char *max_cuda;            /* 12.4: the newest CUDA the driver runs */
    char *torch;               /* 2.3.1+cu121: the first torch found on disk */
    char *capability;          /* 8.9, or 8.0,9.0 for mixed GPUs */
} dl_fleet_info;
void dl_fleet_info_build(const dl_facts *f, dl_fleet_info *out);
void dl_fleet_info_free(dl_fleet_info *info);
/* The worst severity among the findings of this id: 0 ok or info, 1 warning, 2 failure. */
int dl_fleet_check_level(const dl_findings *fs, const char *id);

char *dl_render_fleet_json(const dl_fleet_input *in);
char *dl_render_fleet_prom(const dl_fleet_input *in);
char *dl_render_fleet_nfd(const dl_fleet_input *in);
char *dl_render_fleet_nhc(const dl_fleet_input *in);
/* One line per problem (root cause first, then the other failures, the layers that cannot
 * be judged, the warnings); empty for a healthy node (render/fleet_slurm.c). */
char *dl_render_fleet_slurm(const dl_fleet_input *in);

/* `dlenv fleet gres-conf`: gres.conf lines for node (render/fleet_gres.c), and whether
 * every GPU got its line (NVML listed them and gave each one's minor number). */
char *dl_render_gres_conf(const dl_facts *f, const char *node);
bool dl_gres_conf_complete(const dl_facts *f);

#endif
