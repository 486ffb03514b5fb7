package org.arenaplan.schedule;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** Every topological order of a small dependence graph (brute force), and random ones. */
final class TopologicalOrders {
    private TopologicalOrders() { }

    /** All orders, or null when there are more than {@code cap}. */
    static List<int[]> all(Dependences d, int cap) {
        List<int[]> out = new ArrayList<>();
        int[] indeg = d.indegree.clone();
        boolean ok = walk(d, indeg, new boolean[d.n], new int[d.n], 0, out, cap);
        return ok ? out : null;
    }

    private static boolean walk(Dependences d, int[] indeg, boolean[] done, int[] cur, int depth, List<int[]> out, int cap) {
        if (depth == d.n) {
            out.add(cur.clone());
            return out.size() <= cap;
        }
        for (int v = 0; v < d.n; v++) {
            if (done[v] || indeg[v] != 0) continue;
            done[v] = true;
            cur[depth] = v;
            for (int s : d.succ[v]) indeg[s]--;
            boolean ok = walk(d, indeg, done, cur, depth + 1, out, cap);
            for (int s : d.succ[v]) indeg[s]++;
            done[v] = false;
            if (!ok) return false;
        }
        return true;
    }

    /** A uniformly chosen ready op at every step. */
    static int[] random(Dependences d, Random r) {
        int[] indeg = d.indegree.clone();
        List<Integer> ready = new ArrayList<>();
        for (int v = 0; v < d.n; v++) if (indeg[v] == 0) ready.add(v);
        int[] order = new int[d.n];
        for (int i = 0; i < d.n; i++) {
            int v = ready.remove(r.nextInt(ready.size()));
            order[i] = v;
            for (int s : d.succ[v]) if (--indeg[s] == 0) ready.add(s);
        }
        return order;
    }
}
