#include "facts/schema.h"

#include "base/str.h"
#include "facts/facts.h"

#include <stdlib.h>
#include <string.h>

#define N DL_COUNT
#define F DL_FIELD

static const dl_field probe_run_fields[] = {
    F(dl_probe_run, "name", "probe", DL_F_TEXT, name, NULL, 0),
    F(dl_probe_run, "status", "status", DL_F_TEXT, status, NULL, 0),
    F(dl_probe_run, "detail", "detail", DL_F_TEXT, detail, NULL, DL_OPTIONAL),
    F(dl_probe_run, "duration_ms", "time", DL_F_NUM, duration_ms, NULL, DL_VOLATILE),
};
const dl_schema dl_probe_run_schema = {"probe", sizeof(dl_probe_run), probe_run_fields,
                                       N(probe_run_fields)};

static const dl_field tool_fields[] = {
    F(dl_tool_facts, "name", NULL, DL_F_TEXT, name, NULL, 0),
    F(dl_tool_facts, "version", "Version", DL_F_TEXT, version, NULL, DL_VOLATILE),
    F(dl_tool_facts, "root", "Root", DL_F_TEXT, root, NULL, DL_VOLATILE),
    F(dl_tool_facts, "probes", "Probes", DL_F_LIST, probes, &dl_probe_run_schema, 0),
};
static const dl_schema tool_schema = {"tool", sizeof(dl_tool_facts), tool_fields,
                                      N(tool_fields)};

static const dl_field wsl_fields[] = {
    F(dl_wsl_facts, "detected", "WSL", DL_F_FLAG, detected, NULL, 0),
    F(dl_wsl_facts, "version", "WSL version", DL_F_INT, version, NULL, DL_OPTIONAL),
    F(dl_wsl_facts, "dev_dxg", "/dev/dxg", DL_F_FLAG, dev_dxg, NULL, 0),
    F(dl_wsl_facts, "lib_dir", "/usr/lib/wsl/lib", DL_F_FLAG, lib_dir, NULL, 0),
    F(dl_wsl_facts, "evidence", "WSL evidence", DL_F_TEXTLIST, evidence, NULL, 0),
};
static const dl_schema wsl_schema = {"wsl", sizeof(dl_wsl_facts), wsl_fields, N(wsl_fields)};

static const dl_field container_fields[] = {
    F(dl_container_facts, "detected", "Container", DL_F_FLAG, detected, NULL, 0),
    F(dl_container_facts, "runtime", "Runtime", DL_F_TEXT, runtime, NULL, DL_OPTIONAL),
    F(dl_container_facts, "evidence", "Evidence", DL_F_TEXTLIST, evidence, NULL, 0),
};
static const dl_schema container_schema = {"container", sizeof(dl_container_facts),
                                           container_fields, N(container_fields)};

static const dl_field virtualization_fields[] = {
    F(dl_virtualization_facts, "detected", "Virtual machine", DL_F_FLAG, detected, NULL,
      DL_OPTIONAL),
    F(dl_virtualization_facts, "hypervisor", "Hypervisor", DL_F_TEXT, hypervisor, NULL,
      DL_OPTIONAL),
    F(dl_virtualization_facts, "evidence", "VM evidence", DL_F_TEXTLIST, evidence, NULL,
      DL_OPTIONAL),
};
static const dl_schema virtualization_schema = {"virtualization",
                                                sizeof(dl_virtualization_facts),
                                                virtualization_fields,
                                                N(virtualization_fields)};

/* Every Windows value is optional: other systems have none of them. */
static const dl_field windows_power_fields[] = {
    F(dl_windows_power_facts, "scheme", "Power scheme", DL_F_TEXT, scheme, NULL, DL_OPTIONAL),
    F(dl_windows_power_facts, "scheme_guid", "Power scheme GUID", DL_F_TEXT, scheme_guid, NULL,
      DL_OPTIONAL),
    F(dl_windows_power_facts, "scheme_name", "Power scheme name", DL_F_TEXT, scheme_name, NULL,
      DL_OPTIONAL),
    F(dl_windows_power_facts, "power_mode", "Power mode (AC)", DL_F_TEXT, power_mode, NULL,
      DL_OPTIONAL),
    F(dl_windows_power_facts, "on_battery", "On battery", DL_F_FLAG, on_battery, NULL,
      DL_OPTIONAL),
    F(dl_windows_power_facts, "battery_present", "Battery present", DL_F_FLAG, battery_present,
      NULL, DL_OPTIONAL),
    F(dl_windows_power_facts, "nvidia_power_mode", "NVIDIA power mode", DL_F_TEXT,
      nvidia_power_mode, NULL, DL_OPTIONAL),
    F(dl_windows_power_facts, "memory_compression", "Memory compression", DL_F_TEXT,
      memory_compression, NULL, DL_OPTIONAL),
};
const dl_schema dl_windows_power_schema = {"windows_power", sizeof(dl_windows_power_facts),
                                           windows_power_fields, N(windows_power_fields)};

static const dl_field windows_fields[] = {
    F(dl_windows_facts, "product_name", "Windows", DL_F_TEXT, product_name, NULL, DL_OPTIONAL),
    F(dl_windows_facts, "display_version", "Windows version", DL_F_TEXT, display_version, NULL,
      DL_OPTIONAL),
    F(dl_windows_facts, "build", "Windows build", DL_F_TEXT, build, NULL, DL_OPTIONAL),
    F(dl_windows_facts, "edition", "Edition", DL_F_TEXT, edition, NULL, DL_OPTIONAL),
    F(dl_windows_facts, "hags", "GPU scheduling (HAGS)", DL_F_FLAG, hags, NULL, DL_OPTIONAL),
    F(dl_windows_facts, "long_paths", "Long paths", DL_F_FLAG, long_paths, NULL, DL_OPTIONAL),
    F(dl_windows_facts, "developer_mode", "Developer mode", DL_F_FLAG, developer_mode, NULL,
      DL_OPTIONAL),
    F(dl_windows_facts, "vc_runtime_version", "VC++ runtime", DL_F_TEXT, vc_runtime_version,
      NULL, DL_OPTIONAL),
    F(dl_windows_facts, "msvcp140", "msvcp140.dll", DL_F_TEXT, msvcp140, NULL, DL_OPTIONAL),
    F(dl_windows_facts, "pagefile", "Paging file", DL_F_TEXT, pagefile, NULL, DL_OPTIONAL),
    F(dl_windows_facts, "pagefile_system_managed", "Paging file system-managed", DL_F_FLAG,
      pagefile_system_managed, NULL, DL_OPTIONAL),
    F(dl_windows_facts, "pagefile_max_bytes", "Paging file maximum", DL_F_INT,
      pagefile_max_bytes, NULL, DL_OPTIONAL | DL_FMT_BYTES),
    F(dl_windows_facts, "commit_limit_bytes", "Commit limit", DL_F_INT, commit_limit_bytes,
      NULL, DL_OPTIONAL | DL_FMT_BYTES),
    F(dl_windows_facts, "python_registry", "Registered Pythons (PEP 514)", DL_F_TEXTLIST,
      python_registry, NULL, DL_OPTIONAL),
    F(dl_windows_facts, "power", NULL, DL_F_OBJECT, power, &dl_windows_power_schema, 0),
};
static const dl_schema windows_schema = {"windows", sizeof(dl_windows_facts), windows_fields,
                                         N(windows_fields)};

static const dl_field os_fields[] = {
    F(dl_os_facts, "family", "Family", DL_F_TEXT, family, NULL, 0),
    F(dl_os_facts, "distro_id", NULL, DL_F_TEXT, distro_id, NULL, 0),
    F(dl_os_facts, "distro_name", NULL, DL_F_TEXT, distro_name, NULL, 0),
    F(dl_os_facts, "distro_version", NULL, DL_F_TEXT, distro_version, NULL, 0),
    F(dl_os_facts, "pretty_name", "Distribution", DL_F_TEXT, pretty_name, NULL, 0),
    F(dl_os_facts, "kernel_release", "Kernel", DL_F_TEXT, kernel_release, NULL, 0),
    F(dl_os_facts, "kernel_version", NULL, DL_F_TEXT, kernel_version, NULL, 0),
    F(dl_os_facts, "arch", "Architecture", DL_F_TEXT, arch, NULL, 0),
    F(dl_os_facts, "libc_name", "C library", DL_F_TEXT, libc_name, NULL, 0),
    F(dl_os_facts, "libc_version", "C library version", DL_F_TEXT, libc_version, NULL, 0),
    F(dl_os_facts, "wsl", NULL, DL_F_OBJECT, wsl, &wsl_schema, 0),
    F(dl_os_facts, "container", NULL, DL_F_OBJECT, container, &container_schema, 0),
    F(dl_os_facts, "virtualization", NULL, DL_F_OBJECT, virtualization, &virtualization_schema,
      0),
    F(dl_os_facts, "windows", NULL, DL_F_OBJECT, windows, &windows_schema, 0),
};
static const dl_schema os_schema = {"os", sizeof(dl_os_facts), os_fields, N(os_fields)};

static const dl_field cpu_fields[] = {
    F(dl_cpu_facts, "vendor", "Vendor", DL_F_TEXT, vendor, NULL, 0),
    F(dl_cpu_facts, "model", "Model", DL_F_TEXT, model, NULL, 0),
    F(dl_cpu_facts, "sockets", "Sockets", DL_F_INT, sockets, NULL, 0),
    F(dl_cpu_facts, "physical_cores", "Cores", DL_F_INT, physical_cores, NULL, 0),
    F(dl_cpu_facts, "logical_threads", "Threads", DL_F_INT, logical_threads, NULL, 0),
    F(dl_cpu_facts, "isa", "Vector ISA", DL_F_TEXTLIST, isa, NULL, 0),
    F(dl_cpu_facts, "isa_source", "ISA read from", DL_F_TEXT, isa_source, NULL, DL_OPTIONAL),
    F(dl_cpu_facts, "frequency_driver", "Frequency driver", DL_F_TEXT, frequency_driver, NULL,
      DL_OPTIONAL),
    F(dl_cpu_facts, "frequency_governors", "Governor", DL_F_TEXTLIST, frequency_governors,
      NULL, DL_OPTIONAL),
    F(dl_cpu_facts, "energy_preferences", "Energy preference", DL_F_TEXTLIST,
      energy_preferences, NULL, DL_OPTIONAL),
};
static const dl_schema cpu_schema = {"cpu", sizeof(dl_cpu_facts), cpu_fields, N(cpu_fields)};

static const dl_field memory_fields[] = {
    F(dl_memory_facts, "total_bytes", "Total", DL_F_INT, total_bytes, NULL, DL_FMT_BYTES),
    F(dl_memory_facts, "available_bytes", "Available", DL_F_INT, available_bytes, NULL,
      DL_FMT_BYTES),
    F(dl_memory_facts, "swap_total_bytes", "Swap", DL_F_INT, swap_total_bytes, NULL,
      DL_FMT_BYTES),
    F(dl_memory_facts, "swap_free_bytes", "Swap free", DL_F_INT, swap_free_bytes, NULL,
      DL_FMT_BYTES),
    F(dl_memory_facts, "shm_bytes", "/dev/shm", DL_F_INT, shm_bytes, NULL,
      DL_OPTIONAL | DL_FMT_BYTES),
};
static const dl_schema memory_schema = {"memory", sizeof(dl_memory_facts), memory_fields,
                                        N(memory_fields)};

static const dl_field pci_gpu_fields[] = {
    F(dl_pci_gpu, "address", "PCI address", DL_F_TEXT, address, NULL, 0),
    F(dl_pci_gpu, "class_code", "Class", DL_F_INT, class_code, NULL, DL_FMT_HEX6),
    F(dl_pci_gpu, "class_name", NULL, DL_F_TEXT, class_name, NULL, 0),
    F(dl_pci_gpu, "vendor_id", "Vendor id", DL_F_INT, vendor_id, NULL, DL_FMT_HEX4),
    F(dl_pci_gpu, "device_id", "Device id", DL_F_INT, device_id, NULL, DL_FMT_HEX4),
    F(dl_pci_gpu, "subsystem_vendor_id", "Subsystem vendor", DL_F_INT, subsystem_vendor_id,
      NULL, DL_FMT_HEX4),
    F(dl_pci_gpu, "subsystem_device_id", "Subsystem device", DL_F_INT, subsystem_device_id,
      NULL, DL_FMT_HEX4),
    F(dl_pci_gpu, "vendor_name", "Vendor", DL_F_TEXT, vendor_name, NULL, 0),
    F(dl_pci_gpu, "device_name", "Device", DL_F_TEXT, device_name, NULL, 0),
    F(dl_pci_gpu, "subsystem_name", "Subsystem", DL_F_TEXT, subsystem_name, NULL, 0),
    F(dl_pci_gpu, "driver", "Kernel driver", DL_F_TEXT, driver, NULL, 0),
    F(dl_pci_gpu, "boot_vga", "Primary display", DL_F_FLAG, boot_vga, NULL, DL_OPTIONAL),
    F(dl_pci_gpu, "source", "Seen in", DL_F_TEXT, source, NULL, DL_OPTIONAL),
    F(dl_pci_gpu, "driver_version", "Driver version", DL_F_TEXT, driver_version, NULL,
      DL_OPTIONAL),
    F(dl_pci_gpu, "nvidia_driver_version", "NVIDIA driver", DL_F_TEXT, nvidia_driver_version,
      NULL, DL_OPTIONAL),
    F(dl_pci_gpu, "driver_date", "Driver date", DL_F_TEXT, driver_date, NULL, DL_OPTIONAL),
    F(dl_pci_gpu, "dedicated_memory_bytes", "Dedicated memory", DL_F_INT,
      dedicated_memory_bytes, NULL, DL_OPTIONAL | DL_FMT_BYTES),
    F(dl_pci_gpu, "luid", "LUID", DL_F_TEXT, luid, NULL, DL_OPTIONAL),
};
const dl_schema dl_pci_gpu_schema = {"gpu", sizeof(dl_pci_gpu), pci_gpu_fields,
                                     N(pci_gpu_fields)};

static const dl_field device_node_fields[] = {
    F(dl_device_node, "path", "Device", DL_F_TEXT, path, NULL, 0),
    F(dl_device_node, "accessible", "Accessible", DL_F_FLAG, accessible, NULL, 0),
};
const dl_schema dl_device_node_schema = {"node", sizeof(dl_device_node),
                                             device_node_fields, N(device_node_fields)};

static const dl_field nvidia_kernel_fields[] = {
    F(dl_nvidia_kernel_facts, "proc_version", NULL, DL_F_TEXT, proc_version, NULL, 0),
    F(dl_nvidia_kernel_facts, "driver_version", "Driver version", DL_F_TEXT, driver_version,
      NULL, 0),
    F(dl_nvidia_kernel_facts, "loaded_modules", "Loaded modules", DL_F_TEXTLIST,
      loaded_modules, NULL, 0),
    F(dl_nvidia_kernel_facts, "device_nodes", "Device nodes", DL_F_LIST, device_nodes,
      &dl_device_node_schema, 0),
    F(dl_nvidia_kernel_facts, "module_file", "Module for kernel", DL_F_FLAG, module_file, NULL,
      0),
    F(dl_nvidia_kernel_facts, "module_path", "Module file", DL_F_TEXT, module_path, NULL,
      DL_OPTIONAL),
    F(dl_nvidia_kernel_facts, "secure_boot", "Secure Boot", DL_F_FLAG, secure_boot, NULL, 0),
    F(dl_nvidia_kernel_facts, "persistenced", "Persistence daemon", DL_F_FLAG, persistenced,
      NULL, 0),
    F(dl_nvidia_kernel_facts, "fabricmanager", "Fabric manager", DL_F_FLAG, fabricmanager,
      NULL, 0),
};
const dl_schema dl_nvidia_kernel_schema = {"nvidia_kernel", sizeof(dl_nvidia_kernel_facts),
                                               nvidia_kernel_fields, N(nvidia_kernel_fields)};

static const dl_field gpu_process_fields[] = {
    F(dl_gpu_process, "pid", "PID", DL_F_INT, pid, NULL, 0),
    F(dl_gpu_process, "used_memory_bytes", "Memory", DL_F_INT, used_memory_bytes, NULL,
      DL_FMT_BYTES),
};
static const dl_schema gpu_process_schema = {"process", sizeof(dl_gpu_process),
                                             gpu_process_fields, N(gpu_process_fields)};

static const dl_field nvml_gpu_fields[] = {
    F(dl_nvml_gpu, "index", "Index", DL_F_INT, index, NULL, 0),
    F(dl_nvml_gpu, "name", "Name", DL_F_TEXT, name, NULL, 0),
    F(dl_nvml_gpu, "uuid", "UUID", DL_F_TEXT, uuid, NULL, 0),
    F(dl_nvml_gpu, "pci_bus_id", "PCI bus id", DL_F_TEXT, pci_bus_id, NULL, 0),
    F(dl_nvml_gpu, "minor_number", "Device file minor", DL_F_INT, minor_number, NULL,
      DL_OPTIONAL),
    F(dl_nvml_gpu, "compute_capability", "Compute capability", DL_F_TEXT, compute_capability,
      NULL, 0),
    F(dl_nvml_gpu, "memory_total_bytes", "Memory", DL_F_INT, memory_total_bytes, NULL,
      DL_FMT_BYTES),
    F(dl_nvml_gpu, "memory_used_bytes", "Memory used", DL_F_INT, memory_used_bytes, NULL,
      DL_FMT_BYTES),
    F(dl_nvml_gpu, "pcie_generation", "PCIe generation", DL_F_INT, pcie_generation, NULL, 0),
    F(dl_nvml_gpu, "pcie_generation_max", "PCIe gen. max", DL_F_INT, pcie_generation_max,
      NULL, 0),
    F(dl_nvml_gpu, "pcie_width", "PCIe width", DL_F_INT, pcie_width, NULL, 0),
    F(dl_nvml_gpu, "pcie_width_max", "PCIe width max", DL_F_INT, pcie_width_max, NULL, 0),
    F(dl_nvml_gpu, "sm_clock_mhz", "SM clock MHz", DL_F_INT, sm_clock_mhz, NULL, 0),
    F(dl_nvml_gpu, "sm_clock_max_mhz", "SM clock max MHz", DL_F_INT, sm_clock_max_mhz, NULL,
      0),
    F(dl_nvml_gpu, "memory_clock_mhz", "Mem. clock MHz", DL_F_INT, memory_clock_mhz, NULL, 0),
    F(dl_nvml_gpu, "memory_clock_max_mhz", "Mem. clock max MHz", DL_F_INT,
      memory_clock_max_mhz, NULL, 0),
    F(dl_nvml_gpu, "app_clock_graphics_mhz", "App. clock MHz", DL_F_INT,
      app_clock_graphics_mhz, NULL, DL_OPTIONAL),
    F(dl_nvml_gpu, "app_clock_graphics_default_mhz", "App. clock default", DL_F_INT,
      app_clock_graphics_default_mhz, NULL, DL_OPTIONAL),
    F(dl_nvml_gpu, "app_clock_memory_mhz", "App. mem. clock MHz", DL_F_INT,
      app_clock_memory_mhz, NULL, DL_OPTIONAL),
    F(dl_nvml_gpu, "app_clock_memory_default_mhz", "App. mem. clock default", DL_F_INT,
      app_clock_memory_default_mhz, NULL, DL_OPTIONAL),
    F(dl_nvml_gpu, "display_active", "Display active", DL_F_FLAG, display_active, NULL,
      DL_OPTIONAL),
    F(dl_nvml_gpu, "display_connected", "Monitor connected", DL_F_FLAG, display_connected,
      NULL, DL_OPTIONAL),
    F(dl_nvml_gpu, "power_draw_watts", "Power W", DL_F_NUM, power_draw_watts, NULL, 0),
    F(dl_nvml_gpu, "power_limit_watts", "Power limit W", DL_F_NUM, power_limit_watts, NULL,
      0),
    F(dl_nvml_gpu, "power_limit_default_watts", "Default power limit W", DL_F_NUM,
      power_limit_default_watts, NULL, DL_OPTIONAL),
    F(dl_nvml_gpu, "performance_state", "P-state", DL_F_INT, performance_state, NULL, 0),
    F(dl_nvml_gpu, "throttle_reasons", "Clocks held by", DL_F_TEXTLIST, throttle_reasons,
      NULL, 0),
    F(dl_nvml_gpu, "persistence_mode", "Persistence mode", DL_F_FLAG, persistence_mode, NULL,
      0),
    F(dl_nvml_gpu, "mig_enabled", "MIG", DL_F_FLAG, mig_enabled, NULL, 0),
    F(dl_nvml_gpu, "ecc_enabled", "ECC", DL_F_FLAG, ecc_enabled, NULL, 0),
    F(dl_nvml_gpu, "compute_mode", "Compute mode", DL_F_TEXT, compute_mode, NULL, 0),
    F(dl_nvml_gpu, "driver_model", "Driver model", DL_F_TEXT, driver_model, NULL, DL_OPTIONAL),
    F(dl_nvml_gpu, "processes", "Processes", DL_F_LIST, processes, &gpu_process_schema, 0),
};
const dl_schema dl_nvml_gpu_schema = {"gpu", sizeof(dl_nvml_gpu), nvml_gpu_fields,
                                      N(nvml_gpu_fields)};

static const dl_field gpu_link_fields[] = {
    F(dl_gpu_link, "gpu_a", "GPU", DL_F_INT, gpu_a, NULL, 0),
    F(dl_gpu_link, "gpu_b", "and GPU", DL_F_INT, gpu_b, NULL, 0),
    F(dl_gpu_link, "path", "Path", DL_F_TEXT, path, NULL, 0),
    F(dl_gpu_link, "nvlinks", "NVLinks", DL_F_INT, nvlinks, NULL, 0),
};
static const dl_schema gpu_link_schema = {"link", sizeof(dl_gpu_link), gpu_link_fields,
                                          N(gpu_link_fields)};

static const dl_field nvml_fields[] = {
    F(dl_nvml_facts, "library", "Library", DL_F_TEXT, library, NULL, 0),
    F(dl_nvml_facts, "init_result", "Init", DL_F_TEXT, init_result, NULL, 0),
    F(dl_nvml_facts, "driver_version", "Driver", DL_F_TEXT, driver_version, NULL, 0),
    F(dl_nvml_facts, "cuda_driver_version", "Driver's CUDA", DL_F_INT, cuda_driver_version,
      NULL, 0),
    F(dl_nvml_facts, "nvml_version", "NVML", DL_F_TEXT, nvml_version, NULL, 0),
    F(dl_nvml_facts, "missing_symbols", "Missing functions", DL_F_TEXTLIST, missing_symbols,
      NULL, 0),
    F(dl_nvml_facts, "gpus", "GPUs", DL_F_LIST, gpus, &dl_nvml_gpu_schema, 0),
    F(dl_nvml_facts, "topology", "Topology", DL_F_LIST, topology, &gpu_link_schema, 0),
};
const dl_schema dl_nvml_schema = {"nvml", sizeof(dl_nvml_facts), nvml_fields, N(nvml_fields)};

static const dl_field cuda_device_fields[] = {
    F(dl_cuda_device, "index", "Index", DL_F_INT, index, NULL, 0),
    F(dl_cuda_device, "name", "Name", DL_F_TEXT, name, NULL, 0),
    F(dl_cuda_device, "compute_capability", "Compute capability", DL_F_TEXT,
      compute_capability, NULL, 0),
    F(dl_cuda_device, "sm_count", "SMs", DL_F_INT, sm_count, NULL, 0),
    F(dl_cuda_device, "memory_bytes", "Memory", DL_F_INT, memory_bytes, NULL, DL_FMT_BYTES),
    F(dl_cuda_device, "clock_khz", "Clock kHz", DL_F_INT, clock_khz, NULL, 0),
    F(dl_cuda_device, "memory_clock_khz", "Mem. clock kHz", DL_F_INT, memory_clock_khz, NULL,
      0),
    F(dl_cuda_device, "memory_bus_width_bits", "Bus width bits", DL_F_INT,
      memory_bus_width_bits, NULL, 0),
    F(dl_cuda_device, "ecc_enabled", "ECC", DL_F_FLAG, ecc_enabled, NULL, 0),
    F(dl_cuda_device, "tcc_driver", "TCC", DL_F_FLAG, tcc_driver, NULL, 0),
    F(dl_cuda_device, "pci_bus_id", "PCI bus id", DL_F_TEXT, pci_bus_id, NULL, 0),
};
const dl_schema dl_cuda_device_schema = {"device", sizeof(dl_cuda_device),
                                             cuda_device_fields, N(cuda_device_fields)};

static const dl_field cuda_driver_fields[] = {
    F(dl_cuda_driver_facts, "library", "Library", DL_F_TEXT, library, NULL, 0),
    F(dl_cuda_driver_facts, "init_code", "cuInit", DL_F_INT, init_code, NULL, 0),
    F(dl_cuda_driver_facts, "init_result", "cuInit result", DL_F_TEXT, init_result, NULL, 0),
    F(dl_cuda_driver_facts, "driver_version", "Driver's CUDA", DL_F_INT, driver_version, NULL,
      0),
    F(dl_cuda_driver_facts, "device_count", "Device count", DL_F_INT, device_count, NULL, 0),
    F(dl_cuda_driver_facts, "devices", "Devices", DL_F_LIST, devices, &dl_cuda_device_schema, 0),
};
const dl_schema dl_cuda_driver_schema = {"cuda_driver", sizeof(dl_cuda_driver_facts),
                                         cuda_driver_fields, N(cuda_driver_fields)};

static const dl_field cuda_toolkit_fields[] = {
    F(dl_cuda_toolkit, "path", "Path", DL_F_TEXT, path, NULL, 0),
    F(dl_cuda_toolkit, "found_by", "Found by", DL_F_TEXT, found_by, NULL, 0),
    F(dl_cuda_toolkit, "link_target", "Link to", DL_F_TEXT, link_target, NULL, DL_OPTIONAL),
    F(dl_cuda_toolkit, "version", "Version", DL_F_TEXT, version, NULL, 0),
    F(dl_cuda_toolkit, "version_source", "Version from", DL_F_TEXT, version_source, NULL,
      DL_OPTIONAL),
    F(dl_cuda_toolkit, "cudnn_version", "cuDNN", DL_F_TEXT, cudnn_version, NULL, 0),
    F(dl_cuda_toolkit, "cudnn_libraries", "cuDNN libraries", DL_F_TEXTLIST, cudnn_libraries,
      NULL, 0),
    F(dl_cuda_toolkit, "nccl_version", "NCCL", DL_F_TEXT, nccl_version, NULL, 0),
};
static const dl_schema cuda_toolkit_schema = {"toolkit", sizeof(dl_cuda_toolkit),
                                              cuda_toolkit_fields, N(cuda_toolkit_fields)};

static const dl_field library_copy_fields[] = {
    F(dl_library_copy, "path", "File", DL_F_TEXT, path, NULL, 0),
    F(dl_library_copy, "real_path", "Resolves to", DL_F_TEXT, real_path, NULL, 0),
    F(dl_library_copy, "version", "Version", DL_F_TEXT, version, NULL, 0),
    F(dl_library_copy, "directory_kind", "Found via", DL_F_TEXT, directory_kind, NULL, 0),
    F(dl_library_copy, "chosen", "Loaded first", DL_F_FLAG, chosen, NULL, 0),
    F(dl_library_copy, "stub", "Stub", DL_F_FLAG, stub, NULL, 0),
};
static const dl_schema library_copy_schema = {"copy", sizeof(dl_library_copy),
                                              library_copy_fields, N(library_copy_fields)};

static const dl_field library_lookup_fields[] = {
    F(dl_library_lookup, "name", "Library", DL_F_TEXT, name, NULL, 0),
    F(dl_library_lookup, "chosen", "Loader picks", DL_F_TEXT, chosen, NULL, 0),
    F(dl_library_lookup, "copies", "Copies", DL_F_LIST, copies, &library_copy_schema, 0),
};
static const dl_schema library_lookup_schema = {"library", sizeof(dl_library_lookup),
                                                library_lookup_fields,
                                                N(library_lookup_fields)};

static const dl_field py_package_fields[] = {
    F(dl_py_package, "name", "Package", DL_F_TEXT, name, NULL, 0),
    F(dl_py_package, "version", "Version", DL_F_TEXT, version, NULL, 0),
    F(dl_py_package, "installer", "Installed by", DL_F_TEXT, installer, NULL, 0),
    F(dl_py_package, "channel", "Channel", DL_F_TEXT, channel, NULL, DL_OPTIONAL),
    F(dl_py_package, "source", NULL, DL_F_TEXT, source, NULL, 0),
    F(dl_py_package, "direct_url", "From", DL_F_TEXT, direct_url, NULL, DL_OPTIONAL),
    F(dl_py_package, "requires_torch", "Requires", DL_F_TEXT, requires_torch, NULL,
      DL_OPTIONAL),
    F(dl_py_package, "requires_triton", "Requires triton", DL_F_TEXT, requires_triton, NULL,
      DL_OPTIONAL),
    F(dl_py_package, "libraries", "Native libraries", DL_F_TEXTLIST, libraries, NULL,
      DL_OPTIONAL),
    F(dl_py_package, "built_with", "Built with", DL_F_TEXT, built_with, NULL, DL_OPTIONAL),
};
static const dl_schema py_package_schema = {"package", sizeof(dl_py_package),
                                             py_package_fields, N(py_package_fields)};

static const dl_field missing_dll_fields[] = {
    F(dl_missing_dll, "name", "Missing DLL", DL_F_TEXT, name, NULL, 0),
    F(dl_missing_dll, "needed_by", "Needed by", DL_F_TEXT, needed_by, NULL, 0),
};
static const dl_schema missing_dll_schema = {"missing_dll", sizeof(dl_missing_dll),
                                             missing_dll_fields, N(missing_dll_fields)};

static const dl_field torch_install_fields[] = {
    F(dl_torch_install, "location", "torch at", DL_F_TEXT, location, NULL, 0),
    F(dl_torch_install, "version", "Version", DL_F_TEXT, version, NULL, 0),
    F(dl_torch_install, "local_tag", "Variant", DL_F_TEXT, local_tag, NULL, 0),
    F(dl_torch_install, "cuda", "Built for CUDA", DL_F_TEXT, cuda, NULL, 0),
    F(dl_torch_install, "hip", "Built for HIP", DL_F_TEXT, hip, NULL, 0),
    F(dl_torch_install, "git_version", NULL, DL_F_TEXT, git_version, NULL, 0),
    F(dl_torch_install, "bundled_libraries", "Bundled libraries", DL_F_TEXTLIST,
      bundled_libraries, NULL, 0),
    F(dl_torch_install, "dll_search", "DLL search folders", DL_F_TEXTLIST, dll_search, NULL,
      DL_OPTIONAL),
    F(dl_torch_install, "missing_dlls", "Missing DLLs", DL_F_LIST, missing_dlls,
      &missing_dll_schema, DL_OPTIONAL),
    F(dl_torch_install, "openmp_runtimes", "OpenMP runtimes", DL_F_TEXTLIST, openmp_runtimes,
      NULL, DL_OPTIONAL),
};
static const dl_schema torch_install_schema = {"torch", sizeof(dl_torch_install),
                                               torch_install_fields, N(torch_install_fields)};

static const dl_field site_packages_fields[] = {
    F(dl_site_packages, "path", "Directory", DL_F_TEXT, path, NULL, 0),
    F(dl_site_packages, "scope", "Scope", DL_F_TEXT, scope, NULL, 0),
    F(dl_site_packages, "packages", "Packages", DL_F_LIST, packages, &py_package_schema, 0),
    F(dl_site_packages, "torches", "torch", DL_F_LIST, torches, &torch_install_schema, 0),
};
const dl_schema dl_site_packages_schema = {"site", sizeof(dl_site_packages),
                                           site_packages_fields, N(site_packages_fields)};

static const dl_field torch_device_fields[] = {
    F(dl_torch_device, "index", "Index", DL_F_INT, index, NULL, 0),
    F(dl_torch_device, "name", "Name", DL_F_TEXT, name, NULL, 0),
    F(dl_torch_device, "capability", "Capability", DL_F_TEXT, capability, NULL, 0),
    F(dl_torch_device, "memory_bytes", "Memory", DL_F_INT, memory_bytes, NULL, DL_FMT_BYTES),
};
static const dl_schema torch_device_schema = {"device", sizeof(dl_torch_device),
                                              torch_device_fields, N(torch_device_fields)};

static const dl_field torch_gpu_matmul_fields[] = {
    F(dl_torch_gpu_matmul, "dtype", "dtype", DL_F_TEXT, dtype, NULL, 0),
    F(dl_torch_gpu_matmul, "device", "Device", DL_F_INT, device, NULL, 0),
    F(dl_torch_gpu_matmul, "size", "n", DL_F_INT, size, NULL, 0),
    F(dl_torch_gpu_matmul, "tflops", "TFLOPS", DL_F_NUM, tflops, NULL, DL_VOLATILE),
    F(dl_torch_gpu_matmul, "spread_pct", "Spread %", DL_F_NUM, spread_pct, NULL, DL_VOLATILE),
    F(dl_torch_gpu_matmul, "check", "Check", DL_F_TEXT, check, NULL, 0),
};
static const dl_schema torch_gpu_matmul_schema = {"gpu_matmul", sizeof(dl_torch_gpu_matmul),
                                                  torch_gpu_matmul_fields,
                                                  N(torch_gpu_matmul_fields)};

static const dl_field ext_import_fields[] = {
    F(dl_ext_import, "package", "Package", DL_F_TEXT, package, NULL, 0),
    F(dl_ext_import, "module", "Module", DL_F_TEXT, module, NULL, 0),
    F(dl_ext_import, "status", "Import", DL_F_TEXT, status, NULL, 0),
    F(dl_ext_import, "error", "Error", DL_F_TEXT, error, NULL, DL_OPTIONAL),
    F(dl_ext_import, "output", "Printed", DL_F_TEXT, output, NULL, DL_OPTIONAL),
    F(dl_ext_import, "signal", "Signal", DL_F_INT, signal, NULL, DL_OPTIONAL),
    F(dl_ext_import, "import_ms", "Import ms", DL_F_NUM, import_ms, NULL,
      DL_OPTIONAL | DL_VOLATILE),
};
static const dl_schema ext_import_schema = {"extension", sizeof(dl_ext_import),
                                            ext_import_fields, N(ext_import_fields)};

static const dl_field torch_runtime_fields[] = {
    F(dl_torch_runtime, "status", "import torch", DL_F_TEXT, status, NULL, 0),
    F(dl_torch_runtime, "error", "Error", DL_F_TEXT, error, NULL, DL_OPTIONAL),
    F(dl_torch_runtime, "version", "torch", DL_F_TEXT, version, NULL, 0),
    F(dl_torch_runtime, "file", "Imported from", DL_F_TEXT, file, NULL, 0),
    F(dl_torch_runtime, "origin", "Found through", DL_F_TEXT, origin, NULL, DL_OPTIONAL),
    F(dl_torch_runtime, "origin_detail", "Found in", DL_F_TEXT, origin_detail, NULL,
      DL_OPTIONAL),
    F(dl_torch_runtime, "cuda", "torch.version.cuda", DL_F_TEXT, cuda, NULL, 0),
    F(dl_torch_runtime, "hip", "torch.version.hip", DL_F_TEXT, hip, NULL, 0),
    F(dl_torch_runtime, "cuda_available", "CUDA available", DL_F_FLAG, cuda_available, NULL,
      0),
    F(dl_torch_runtime, "cuda_warning", "CUDA warning", DL_F_TEXT, cuda_warning, NULL,
      DL_OPTIONAL),
    F(dl_torch_runtime, "device_count", "CUDA devices", DL_F_INT, device_count, NULL, 0),
    F(dl_torch_runtime, "devices", "Devices", DL_F_LIST, devices, &torch_device_schema, 0),
    F(dl_torch_runtime, "arch_list", "Compiled for", DL_F_TEXTLIST, arch_list, NULL, 0),
    F(dl_torch_runtime, "cudnn_version", "cuDNN", DL_F_INT, cudnn_version, NULL, 0),
    F(dl_torch_runtime, "mkl", "MKL", DL_F_FLAG, mkl, NULL, 0),
    F(dl_torch_runtime, "mkldnn", "oneDNN", DL_F_FLAG, mkldnn, NULL, 0),
    F(dl_torch_runtime, "openmp", "OpenMP", DL_F_FLAG, openmp, NULL, 0),
    F(dl_torch_runtime, "blas", "BLAS", DL_F_TEXT, blas, NULL, 0),
    F(dl_torch_runtime, "blas_core", "OpenBLAS kernel", DL_F_TEXT, blas_core, NULL, DL_OPTIONAL),
    F(dl_torch_runtime, "blas_threads", "OpenBLAS threads", DL_F_INT, blas_threads, NULL,
      DL_OPTIONAL),
    F(dl_torch_runtime, "blas_config", "OpenBLAS build", DL_F_TEXT, blas_config, NULL,
      DL_OPTIONAL),
    F(dl_torch_runtime, "threads", "Threads", DL_F_INT, threads, NULL, 0),
    F(dl_torch_runtime, "interop_threads", "Interop threads", DL_F_INT, interop_threads, NULL,
      0),
    F(dl_torch_runtime, "mps_available", "MPS", DL_F_FLAG, mps_available, NULL, 0),
    F(dl_torch_runtime, "xpu_available", "XPU", DL_F_FLAG, xpu_available, NULL, 0),
    F(dl_torch_runtime, "loaded_libraries", "Loaded libraries", DL_F_TEXTLIST,
      loaded_libraries, NULL, 0),
    F(dl_torch_runtime, "import_ms", "Import ms", DL_F_NUM, import_ms, NULL, DL_VOLATILE),
    F(dl_torch_runtime, "matmul_gflops", "fp32 matmul GFLOPS", DL_F_NUM, matmul_gflops, NULL,
      DL_OPTIONAL | DL_VOLATILE),
    F(dl_torch_runtime, "matmul_size", "matmul size", DL_F_INT, matmul_size, NULL,
      DL_OPTIONAL),
    F(dl_torch_runtime, "matmul_spread_pct", "matmul spread %", DL_F_NUM, matmul_spread_pct,
      NULL, DL_OPTIONAL | DL_VOLATILE),
    F(dl_torch_runtime, "gpu_matmul", "GPU matmul", DL_F_LIST, gpu_matmul,
      &torch_gpu_matmul_schema, DL_OPTIONAL),
    F(dl_torch_runtime, "extensions", "Extension imports", DL_F_LIST, extensions,
      &ext_import_schema, DL_OPTIONAL),
};
const dl_schema dl_torch_runtime_schema = {"runtime", sizeof(dl_torch_runtime),
                                           torch_runtime_fields, N(torch_runtime_fields)};

static const dl_field python_fields[] = {
    F(dl_python, "path", "Python", DL_F_TEXT, path, NULL, 0),
    F(dl_python, "real_path", "Real path", DL_F_TEXT, real_path, NULL, 0),
    F(dl_python, "found_by", "Found by", DL_F_TEXTLIST, found_by, NULL, 0),
    F(dl_python, "version", "Version", DL_F_TEXT, version, NULL, 0),
    F(dl_python, "implementation", "Implementation", DL_F_TEXT, implementation, NULL, 0),
    F(dl_python, "bits", "Bits", DL_F_INT, bits, NULL, 0),
    F(dl_python, "kind", "Kind", DL_F_TEXT, kind, NULL, 0),
    F(dl_python, "prefix", "Prefix", DL_F_TEXT, prefix, NULL, 0),
    F(dl_python, "pip", "Its pip on PATH", DL_F_TEXT, pip, NULL, 0),
    F(dl_python, "site_packages", "Site packages", DL_F_LIST, site_packages,
      &dl_site_packages_schema, 0),
    F(dl_python, "runtime", NULL, DL_F_OBJECT, runtime, &dl_torch_runtime_schema, 0),
};
const dl_schema dl_python_schema = {"python", sizeof(dl_python), python_fields,
                                    N(python_fields)};

/* Optional: reports written before they existed lack them. */
static const dl_field pip_command_fields[] = {
    F(dl_pip_command, "path", "pip on PATH", DL_F_TEXT, path, NULL, DL_OPTIONAL),
    F(dl_pip_command, "python", "Installs for", DL_F_TEXT, python, NULL, DL_OPTIONAL),
    F(dl_pip_command, "prefix", "Into", DL_F_TEXT, prefix, NULL, DL_OPTIONAL),
};
static const dl_schema pip_command_schema = {"pip", sizeof(dl_pip_command), pip_command_fields,
                                             N(pip_command_fields)};

static const dl_field user_fields[] = {
    F(dl_user_facts, "admin", "Administrator", DL_F_FLAG, admin, NULL, DL_OPTIONAL),
    F(dl_user_facts, "sudo", "sudo on PATH", DL_F_FLAG, sudo, NULL, DL_OPTIONAL),
};
static const dl_schema user_schema = {"user", sizeof(dl_user_facts), user_fields,
                                      N(user_fields)};

#define MEASURED DL_OPTIONAL | DL_VOLATILE
static const dl_field cpu_measure_fields[] = {
    F(dl_cpu_measure, "isa", "Kernel ISA", DL_F_TEXT, isa, NULL, DL_OPTIONAL),
    F(dl_cpu_measure, "threads", "Threads", DL_F_INT, threads, NULL, DL_OPTIONAL),
    F(dl_cpu_measure, "fp32_gflops_1core", "fp32 GFLOPS, 1 core", DL_F_NUM, fp32_gflops_1core,
      NULL, MEASURED),
    F(dl_cpu_measure, "fp64_gflops_1core", "fp64 GFLOPS, 1 core", DL_F_NUM, fp64_gflops_1core,
      NULL, MEASURED),
    F(dl_cpu_measure, "fp32_gflops_all", "fp32 GFLOPS, all cores", DL_F_NUM, fp32_gflops_all,
      NULL, MEASURED),
    F(dl_cpu_measure, "fp64_gflops_all", "fp64 GFLOPS, all cores", DL_F_NUM, fp64_gflops_all,
      NULL, MEASURED),
    F(dl_cpu_measure, "peak_spread_pct", "Peak spread %", DL_F_NUM, peak_spread_pct, NULL,
      MEASURED),
    F(dl_cpu_measure, "triad_gbps", "Memory triad GB/s", DL_F_NUM, triad_gbps, NULL, MEASURED),
    F(dl_cpu_measure, "triad_array_bytes", "Triad array", DL_F_INT, triad_array_bytes, NULL,
      DL_OPTIONAL | DL_FMT_BYTES),
};
static const dl_schema cpu_measure_schema = {"cpu_measure", sizeof(dl_cpu_measure),
                                             cpu_measure_fields, N(cpu_measure_fields)};

#define GPU_MEASURED(key, label, kind, member, flags) \
    F(dl_gpu_measure, key, label, kind, member, NULL, DL_OPTIONAL | (flags))
static const dl_field gpu_measure_fields[] = {
    GPU_MEASURED("index", "CUDA device", DL_F_INT, index, 0),
    GPU_MEASURED("pci_bus_id", "PCI bus id", DL_F_TEXT, pci_bus_id, 0),
    GPU_MEASURED("status", "Status", DL_F_TEXT, status, 0),
    GPU_MEASURED("error", "Error", DL_F_TEXT, error, 0),
    GPU_MEASURED("check", "Kernel check", DL_F_TEXT, check, 0),
    GPU_MEASURED("check_elements", "Checked values", DL_F_INT, check_elements, 0),
    GPU_MEASURED("fp32_tflops", "fp32 TFLOPS (FMA kernel)", DL_F_NUM, fp32_tflops, DL_VOLATILE),
    GPU_MEASURED("fp32_spread_pct", "fp32 spread %", DL_F_NUM, fp32_spread_pct, DL_VOLATILE),
    GPU_MEASURED("copy_kernel_gbps", "Copy kernel GB/s", DL_F_NUM, copy_kernel_gbps,
                 DL_VOLATILE),
    GPU_MEASURED("dtod_gbps", "cuMemcpyDtoD GB/s", DL_F_NUM, dtod_gbps, DL_VOLATILE),
    GPU_MEASURED("copy_buffer_bytes", "Copy buffer", DL_F_INT, copy_buffer_bytes, DL_FMT_BYTES),
    GPU_MEASURED("h2d_pinned_gbps", "Host to device, pinned GB/s", DL_F_NUM, h2d_pinned_gbps,
                 DL_VOLATILE),
    GPU_MEASURED("d2h_pinned_gbps", "Device to host, pinned GB/s", DL_F_NUM, d2h_pinned_gbps,
                 DL_VOLATILE),
    GPU_MEASURED("h2d_pageable_gbps", "Host to device, pageable GB/s", DL_F_NUM,
                 h2d_pageable_gbps, DL_VOLATILE),
    GPU_MEASURED("d2h_pageable_gbps", "Device to host, pageable GB/s", DL_F_NUM,
                 d2h_pageable_gbps, DL_VOLATILE),
    GPU_MEASURED("transfer_bytes", "Transfer buffer", DL_F_INT, transfer_bytes, DL_FMT_BYTES),
    GPU_MEASURED("memory_free_bytes", "Free memory", DL_F_INT, memory_free_bytes,
                 DL_FMT_BYTES | DL_VOLATILE),
    GPU_MEASURED("memory_total_bytes", "Total memory", DL_F_INT, memory_total_bytes,
                 DL_FMT_BYTES),
    GPU_MEASURED("max_alloc_bytes", "Largest allocation", DL_F_INT, max_alloc_bytes,
                 DL_FMT_BYTES | DL_VOLATILE),
    GPU_MEASURED("load_sm_clock_mhz", "SM clock under load MHz", DL_F_INT, load_sm_clock_mhz,
                 DL_VOLATILE),
    GPU_MEASURED("load_sm_clock_max_mhz", "SM clock max MHz", DL_F_INT, load_sm_clock_max_mhz,
                 0),
    F(dl_gpu_measure, "load_throttle_reasons", "Clock events under load", DL_F_TEXTLIST,
      load_throttle_reasons, NULL, DL_OPTIONAL | DL_VOLATILE),
    GPU_MEASURED("load_power_watts", "Power under load W", DL_F_NUM, load_power_watts,
                 DL_VOLATILE),
    GPU_MEASURED("load_pcie_generation", "PCIe gen. under load", DL_F_INT, load_pcie_generation,
                 DL_VOLATILE),
    GPU_MEASURED("load_pcie_width", "PCIe width under load", DL_F_INT, load_pcie_width,
                 DL_VOLATILE),
    GPU_MEASURED("pcie_generation_max", "PCIe gen. max", DL_F_INT, pcie_generation_max, 0),
    GPU_MEASURED("pcie_width_max", "PCIe width max", DL_F_INT, pcie_width_max, 0),
};
#undef GPU_MEASURED
static const dl_schema gpu_measure_schema = {"gpu", sizeof(dl_gpu_measure),
                                             gpu_measure_fields, N(gpu_measure_fields)};

static const dl_field gpu_measure_facts_fields[] = {
    F(dl_gpu_measure_facts, "status", "Status", DL_F_TEXT, status, NULL, DL_OPTIONAL),
    F(dl_gpu_measure_facts, "detail", "Detail", DL_F_TEXT, detail, NULL, DL_OPTIONAL),
    F(dl_gpu_measure_facts, "devices", "Devices", DL_F_LIST, devices, &gpu_measure_schema,
      DL_OPTIONAL),
};
const dl_schema dl_gpu_measure_schema = {"gpu_measure", sizeof(dl_gpu_measure_facts),
                                         gpu_measure_facts_fields,
                                         N(gpu_measure_facts_fields)};

static const dl_field facts_fields[] = {
    F(dl_facts, "schema", NULL, DL_F_TEXT, schema, NULL, 0),
    F(dl_facts, "os", "Operating system", DL_F_OBJECT, os, &os_schema, 0),
    F(dl_facts, "cpu", "CPU", DL_F_OBJECT, cpu, &cpu_schema, 0),
    F(dl_facts, "memory", "Memory", DL_F_OBJECT, memory, &memory_schema, 0),
    F(dl_facts, "gpus", "GPUs (PCI)", DL_F_LIST, gpus, &dl_pci_gpu_schema, 0),
    F(dl_facts, "pci_ids", "PCI names from", DL_F_TEXT, pci_ids, NULL, 0),
    F(dl_facts, "environment", "Environment", DL_F_DICT, environment, NULL, 0),
    F(dl_facts, "nvidia_kernel", "NVIDIA kernel driver", DL_F_OBJECT, nvidia_kernel,
      &dl_nvidia_kernel_schema, 0),
    F(dl_facts, "nvml", "NVML", DL_F_OBJECT, nvml, &dl_nvml_schema, 0),
    F(dl_facts, "cuda_driver", "CUDA driver API", DL_F_OBJECT, cuda_driver,
      &dl_cuda_driver_schema, 0),
    F(dl_facts, "cuda_toolkits", "CUDA toolkits", DL_F_LIST, cuda_toolkits,
      &cuda_toolkit_schema, 0),
    F(dl_facts, "libraries", "Library search", DL_F_LIST, libraries, &library_lookup_schema,
      0),
    F(dl_facts, "pythons", "Python interpreters", DL_F_LIST, pythons, &dl_python_schema, 0),
    F(dl_facts, "pip", "pip", DL_F_OBJECT, pip, &pip_command_schema, 0),
    F(dl_facts, "user", "User", DL_F_OBJECT, user, &user_schema, 0),
    F(dl_facts, "cpu_measure", "CPU, measured", DL_F_OBJECT, cpu_measure, &cpu_measure_schema, 0),
    F(dl_facts, "gpu_measure", "GPU, measured", DL_F_OBJECT, gpu_measure, &dl_gpu_measure_schema,
      0),
    F(dl_facts, "tool", "dlenv", DL_F_OBJECT, tool, &tool_schema, 0),
};
const dl_schema dl_facts_schema = {"facts", sizeof(dl_facts), facts_fields,
                                   N(facts_fields)};

static void free_list(const dl_field *fd, dl_list *l)
{
    size_t i;
    for (i = 0; i < l->count; i++) {
        if (fd->kind == DL_F_LIST) {
            dl_schema_free(fd->sub, (char *)l->items + i * fd->sub->size);
        } else if (fd->kind == DL_F_TEXTLIST) {
            free(DL_LIST_AT(*l, char *, i));
        } else {
            free(DL_LIST_AT(*l, dl_pair, i).name);
            free(DL_LIST_AT(*l, dl_pair, i).value);
        }
    }
    free(l->items);
    free(l->why);
    memset(l, 0, sizeof *l);
}

void dl_schema_free(const dl_schema *s, void *obj)
{
    size_t i;
    for (i = 0; i < s->count; i++) {
        const dl_field *fd = &s->fields[i];
        void *p = (char *)obj + fd->offset;
        switch (fd->kind) {
        case DL_F_TEXT:
            free(((dl_text *)p)->value);
            free(((dl_text *)p)->why);
            break;
        case DL_F_INT:
            free(((dl_int *)p)->why);
            break;
        case DL_F_FLAG:
            free(((dl_flag *)p)->why);
            break;
        case DL_F_NUM:
            free(((dl_num *)p)->why);
            break;
        case DL_F_OBJECT:
            dl_schema_free(fd->sub, p);
            break;
        case DL_F_LIST:
        case DL_F_TEXTLIST:
        case DL_F_DICT:
            free_list(fd, p);
            break;
        }
    }
    memset(obj, 0, s->size);
}

static bool scalar_is_silent(const dl_field *fd, const void *p)
{
    switch (fd->kind) {
    case DL_F_TEXT: return !((const dl_text *)p)->value && !((const dl_text *)p)->why;
    case DL_F_INT: return !((const dl_int *)p)->known && !((const dl_int *)p)->why;
    case DL_F_FLAG: return !((const dl_flag *)p)->known && !((const dl_flag *)p)->why;
    case DL_F_NUM: return !((const dl_num *)p)->known && !((const dl_num *)p)->why;
    default: return !((const dl_list *)p)->known && !((const dl_list *)p)->why;
    }
}

size_t dl_schema_find_silent(const dl_schema *s, const void *obj, const char *path,
                             dl_buf *out)
{
    size_t i, j, n = 0;
    for (i = 0; i < s->count; i++) {
        const dl_field *fd = &s->fields[i];
        const void *p = (const char *)obj + fd->offset;
        char *sub = dl_fmt("%s.%s", path, fd->key);
        if (fd->kind == DL_F_OBJECT) {
            n += dl_schema_find_silent(fd->sub, p, sub, out);
        } else if (scalar_is_silent(fd, p)) {
            if (!(fd->flags & DL_OPTIONAL)) {
                dl_buf_printf(out, "%s\n", sub);
                n++;
            }
        } else if (fd->kind == DL_F_LIST) {
            const dl_list *l = p;
            for (j = 0; j < l->count; j++) {
                char *item = dl_fmt("%s[%zu]", sub, j);
                n += dl_schema_find_silent(fd->sub, (const char *)l->items + j * fd->sub->size,
                                           item, out);
                free(item);
            }
        }
        free(sub);
    }
    return n;
}

void dl_schema_fill_unknown(const dl_schema *s, void *obj, const char *why)
{
    size_t i;
    for (i = 0; i < s->count; i++) {
        const dl_field *fd = &s->fields[i];
        void *p = (char *)obj + fd->offset;
        if (fd->kind == DL_F_OBJECT) {
            dl_schema_fill_unknown(fd->sub, p, why);
            continue;
        }
        if (scalar_is_silent(fd, p) && !(fd->flags & DL_OPTIONAL))
            dl_value_set_unknown(fd->kind, p, why);
    }
}

void dl_value_set_unknown(dl_field_kind kind, void *p, const char *why)
{
    switch (kind) {
    case DL_F_TEXT: dl_text_unknown(p, "%s", why); break;
    case DL_F_INT: dl_int_unknown(p, "%s", why); break;
    case DL_F_FLAG: dl_flag_unknown(p, "%s", why); break;
    case DL_F_NUM: dl_num_unknown(p, "%s", why); break;
    case DL_F_OBJECT: break; /* objects are never unknown as a whole */
    default: dl_list_unknown(p, "%s", why); break;
    }
}
