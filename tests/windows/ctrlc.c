/* Presses Ctrl-C for a test: runs the command line it is given in its own console, and when a
 * line arrives on its standard input sends Ctrl-C to that console, as a person pressing Ctrl-C
 * in a Command Prompt would; then waits for the command and exits with its exit code. Wine has
 * no other way to deliver a console control event to a program started from Linux. */
#include <windows.h>
#include <stdio.h>

int main(void) {
    wchar_t *rest = GetCommandLineW();
    /* Skip this program's own name (quoted or not), then the spaces after it. */
    if (*rest == L'"') {
        rest++;
        while (*rest && *rest != L'"') rest++;
        if (*rest) rest++;
    } else {
        while (*rest && *rest != L' ' && *rest != L'\t') rest++;
    }
    while (*rest == L' ' || *rest == L'\t') rest++;
    if (!*rest) {
        fprintf(stderr, "usage: ctrlc.exe PROGRAM [ARGUMENTS]\n");
        return 2;
    }
    /* The command's standard handles stay the test's pipes; only the console is new. */
    STARTUPINFOW si = {sizeof si};
    si.dwFlags = STARTF_USESTDHANDLES;
    si.hStdInput = GetStdHandle(STD_INPUT_HANDLE);
    si.hStdOutput = GetStdHandle(STD_OUTPUT_HANDLE);
    si.hStdError = GetStdHandle(STD_ERROR_HANDLE);
    /* Started from Linux with pipes, a program has no console to send Ctrl-C to: it gets one. */
    FreeConsole();
    if (!AllocConsole()) {
        fprintf(stderr, "ctrlc.exe: cannot make a console: error %lu\n", GetLastError());
        return 2;
    }
    PROCESS_INFORMATION pi;
    if (!CreateProcessW(NULL, rest, NULL, NULL, TRUE, 0, NULL, NULL, &si, &pi)) {
        fprintf(stderr, "ctrlc.exe: cannot start the command: error %lu\n", GetLastError());
        return 2;
    }
    /* After the start, so that the command does not inherit the ignoring of Ctrl-C. */
    SetConsoleCtrlHandler(NULL, TRUE);
    char line[16];
    DWORD got;
    ReadFile(si.hStdInput, line, sizeof line, &got, NULL);
    if (!GenerateConsoleCtrlEvent(CTRL_C_EVENT, 0)) {
        fprintf(stderr, "ctrlc.exe: cannot send Ctrl-C: error %lu\n", GetLastError());
        TerminateProcess(pi.hProcess, 3);
    }
    WaitForSingleObject(pi.hProcess, INFINITE);
    DWORD code = 2;
    GetExitCodeProcess(pi.hProcess, &code);
    return (int)code;
}
