package searchbook.realnode;

/**
 * Ends the JVM when whoever it serves is gone: the process parent.pid names (a test run's
 * main process, which outlives the worker that started the node), and, when asked, the end
 * of stdin (the parent's end of the pipe closes also when the parent is killed).
 */
final class StopWatch {
    /** Starts watching; called before the node is built, so a run killed during start-up also ends it. */
    static void exitWhenParentEnds(String parentPid, boolean watchStdin) {
        if (watchStdin) watchStdin();
        if (parentPid != null && !parentPid.isEmpty()) {
            ProcessHandle.of(Long.parseLong(parentPid)).ifPresentOrElse(
                parent -> parent.onExit().thenRun(() -> System.exit(0)),
                () -> System.exit(0)
            );
        }
    }

    private static void watchStdin() {
        Thread stdinWatch = new Thread(() -> {
            try {
                while (System.in.read() != -1) {
                    // Anything written is ignored; only end of file matters.
                }
            } catch (java.io.IOException e) {
                // A broken pipe means the parent is gone too.
            }
            System.exit(0);
        }, "searchbook-stdin-watch");
        stdinWatch.setDaemon(true);
        stdinWatch.start();
    }

    private StopWatch() {}
}
