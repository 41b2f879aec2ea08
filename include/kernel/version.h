/* The kernel's name and version, printed at boot and by 'version'. */
#ifndef KERNEL_VERSION_H
#define KERNEL_VERSION_H

#define KERNEL_NAME "kleak"
#define KERNEL_VERSION "0.1"

extern const char kernel_banner[];

#endif
