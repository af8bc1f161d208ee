/* win_launch.cpp - runs a Linux command from a Windows program under wine, and waits for it.

   Wine starts a Linux executable given to CreateProcess, but the process handle it returns cannot be
   waited on. So this launcher (a real Windows process the host can wait on and read) starts
       /bin/sh -c "<command> > OUT 2>&1; echo $? > STATUS.tmp; mv STATUS.tmp STATUS"
   polls for STATUS, copies OUT to its stdout and exits with the command's exit code.
   The test leg gives it to host.exe as --build-cmd, so the host builds its game DLL with the cross
   compiler on the Linux side exactly as it would run build.bat on Windows.

   usage: win_launch.exe <linux scratch folder> <linux command words...>
   (words must not contain double quotes; they are passed to sh inside single quotes) */
#include <windows.h>
#include <fcntl.h>
#include <io.h>
#include <stdio.h>
#include <string.h>

static void win_path(const char *unix_path, char *out, size_t cap)
{
    snprintf(out, cap, "Z:%s", unix_path);
    for (char *p = out; *p; p++) if (*p == '/') *p = '\\';
}

int main(int argc, char **argv)
{
    if (argc < 3) { fprintf(stderr, "usage: win_launch.exe <linux scratch folder> <command...>\n"); return 2; }
    char out_unix[1024], status_unix[1024], out_win[1100], status_win[1100];
    unsigned long id = GetCurrentProcessId() ^ (GetTickCount() << 12);
    snprintf(out_unix, sizeof out_unix, "%s/launch.%lu.out", argv[1], id);
    snprintf(status_unix, sizeof status_unix, "%s/launch.%lu.status", argv[1], id);
    win_path(out_unix, out_win, sizeof out_win);
    win_path(status_unix, status_win, sizeof status_win);

    static char cmd[32768];
    size_t len = (size_t)snprintf(cmd, sizeof cmd, "/bin/sh -c \"");
    for (int i = 2; i < argc && len < sizeof cmd; i++) {
        if (strchr(argv[i], '"') || strchr(argv[i], '\'')) { fprintf(stderr, "win_launch: quotes in '%s'\n", argv[i]); return 2; }
        len += (size_t)snprintf(cmd + len, sizeof cmd - len, "'%s' ", argv[i]);
    }
    if (len < sizeof cmd)
        snprintf(cmd + len, sizeof cmd - len, "> '%s' 2>&1; echo $? > '%s.tmp'; mv '%s.tmp' '%s'\"", out_unix, status_unix,
                 status_unix, status_unix);

    STARTUPINFOA si;
    memset(&si, 0, sizeof si);
    si.cb = sizeof si;
    PROCESS_INFORMATION pi;
    memset(&pi, 0, sizeof pi);
    if (!CreateProcessA(NULL, cmd, NULL, NULL, FALSE, 0, NULL, NULL, &si, &pi)) {
        fprintf(stderr, "win_launch: cannot start /bin/sh (error %lu)\n", GetLastError());
        return 2;
    }
    if (pi.hProcess) CloseHandle(pi.hProcess);
    if (pi.hThread) CloseHandle(pi.hThread);

    int code = -1;
    for (DWORD waited = 0; waited < 600000; waited += 10) {
        FILE *f = fopen(status_win, "rb");
        if (f) {
            if (fscanf(f, "%d", &code) != 1) code = -1;
            fclose(f);
            break;
        }
        Sleep(10);
    }
    _setmode(_fileno(stdout), _O_BINARY);   /* the compiler's lines as they are, no CR added */
    FILE *o = fopen(out_win, "rb");
    if (o) {
        char buf[4096];
        size_t n;
        while ((n = fread(buf, 1, sizeof buf, o)) > 0) fwrite(buf, 1, n, stdout);
        fclose(o);
    }
    fflush(stdout);
    DeleteFileA(out_win);
    DeleteFileA(status_win);
    if (code < 0) fprintf(stderr, "win_launch: the command never reported its end\n");
    return code < 0 ? 1 : code;
}
