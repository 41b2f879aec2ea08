/*
 * The console of the host build: output goes to a log that tests read
 * back (and to stderr with HOST_LOG_ECHO set), input comes from stdin.
 */
#include <kernel/console.h>
#include <kernel/string.h>
#include <asm/host.h>

#include <stdlib.h>
#include <unistd.h>

#define HOST_LOG_SIZE (256 * 1024)

static char log_buf[HOST_LOG_SIZE];
static size_t log_len;
static int echo = -1;

void (*host_on_console_write)(void);
bool host_other_cpu_ran;

/* Keeps the newest half when full: tests look at what just happened. */
static void log_make_room(size_t len)
{
	size_t keep = HOST_LOG_SIZE / 2;

	if (log_len + len < HOST_LOG_SIZE)
		return;
	if (len >= keep) {
		log_len = 0;
		return;
	}
	memmove(log_buf, log_buf + log_len - keep, keep);
	log_len = keep;
}

void console_write(const char *s, size_t len)
{
	if (len >= HOST_LOG_SIZE)
		len = HOST_LOG_SIZE - 1;
	log_make_room(len);
	memcpy(log_buf + log_len, s, len);
	log_len += len;
	log_buf[log_len] = '\0';
	if (echo < 0)
		echo = getenv("HOST_LOG_ECHO") != NULL;
	if (echo && write(2, s, len) < 0)
		echo = 0;
	if (host_on_console_write) {
		void (*hook)(void) = host_on_console_write;

		host_on_console_write = NULL;	/* what it prints: not again */
		host_other_cpu_ran = true;
		hook();
		if (!host_on_console_write)
			host_on_console_write = hook;
	}
}

void console_putc(char c)
{
	console_write(&c, 1);
}

int console_getc(void)
{
	unsigned char c;

	return read(0, &c, 1) == 1 ? c : -1;
}

const char *host_log(void)
{
	return log_buf;
}

void host_log_clear(void)
{
	log_len = 0;
	log_buf[0] = '\0';
}
