package org.arenaplan.sim;


import java.util.ArrayDeque;
import java.util.Random;
import java.util.concurrent.locks.LockSupport;

/**
 * A stream of the live simulator: one worker thread runs the queue in order, sleeping a seeded
 * random delay before each work item so that streams interleave differently per seed.
 */
final class SimStream implements SimQueue {
    private final SimDevice device;
    private final String name;
    private final ArrayDeque<SimTask> queue = new ArrayDeque<>();
    private final Random delays;
    private final long maxDelayNanos;
    private final Thread worker;
    private long issued;      // guarded by this
    private long completed;   // guarded by this
    private boolean closing;  // guarded by this

    SimStream(SimDevice device, String name, long seed, long maxDelayNanos) {
        this.device = device;
        this.name = name;
        this.delays = new Random(seed);
        this.maxDelayNanos = maxDelayNanos;
        this.worker = new Thread(this::runQueue, "sim-stream-" + name);
        worker.setDaemon(true);
        worker.start();
    }

    @Override
    public String name() { return name; }

    /** Queues a task; returns its ticket (the stream's issued count after it). */
    @Override
    public synchronized long submit(SimTask task) {
        if (closing) throw new IllegalStateException("stream " + name + " is closed");
        queue.add(task);
        notifyAll();
        return ++issued;
    }

    @Override
    public synchronized long issued() { return issued; }

    @Override
    public synchronized long completed() { return completed; }

    synchronized void awaitCompleted(long ticket) {
        Monitors.awaitUninterruptibly(this, () -> completed >= ticket);
    }

    @Override
    public void synchronize() {
        awaitCompleted(issued());
        device.afterSynchronize();
    }

    @Override
    public void close() {
        synchronize();
        synchronized (this) {
            closing = true;
            notifyAll();
        }
        try {
            worker.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        device.forget(this);
    }

    private void runQueue() {
        while (true) {
            SimTask task;
            synchronized (this) {
                while (queue.isEmpty() && !closing) {
                    try {
                        wait();
                    } catch (InterruptedException e) {
                        return;
                    }
                }
                if (queue.isEmpty()) return;
                task = queue.poll();
            }
            if (task instanceof SimTask.Work && maxDelayNanos > 0) LockSupport.parkNanos(1 + (long) (delays.nextDouble() * maxDelayNanos));
            device.execute(task);
            synchronized (this) {
                completed++;
                notifyAll();
            }
        }
    }
}
