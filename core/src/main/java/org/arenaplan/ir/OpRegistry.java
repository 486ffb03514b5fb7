package org.arenaplan.ir;

import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.Set;

/**
 * The one table of op kinds: per kind, its {@link OpSpec} (attributes, shape rule, aliasing it
 * allows, kernels). {@link GraphBuilder} checks every op of a known kind against its entry
 * ({@link OpChecks}); liveness refuses in-place hints its kernels cannot honour; the plan
 * validator rejects plans that rely on such declarations; the executors lower through it; the
 * simulator and the CUDA backend implement its kernel names.
 *
 * <p>The entries are declared in the layer above, {@code org.arenaplan.ops}: each op family is
 * one class there whose definitions hold, per kind, these facts, its lowering to kernel calls,
 * its gradient rule and its ONNX import, so adding an op touches one place plus its kernels
 * (docs/adding-an-op.md). This class reads them once through the {@link OpTable} service
 * ({@link ServiceLoader}), so this package stays free of device code. Layers: ir (facts, pure)
 * &lt;- exec, train, onnx (lowering, gradient rules and import dispatched by kind and op type)
 * &lt;- ops (the definitions), after ONNX Runtime's kernel registry and PyTorch's
 * native_functions.yaml (one declaration, several generated tables).
 *
 * <p>Kinds outside the table are opaque: planning takes their declarations on trust (a
 * planning-only graph may use any kind), the executors refuse them. A kind that is a near miss
 * of one in the table ({@code Tranpose}) is flagged by {@link OpKindSpelling}.
 *
 * <p>Kernel names (strings, so this pure package does not depend on device code) are those of
 * {@code org.arenaplan.device.Kernels}. In-place is allowed only where every kernel the kind
 * lowers to is one of {@code Kernels.IN_PLACE} (checked by a test).
 */
public final class OpRegistry {
    /** Kernel names {@link OpSpec#elementwise()} recognises (those of {@code device.Kernels}). */
    static final String UNARY = "unary", BINARY = "binary_broadcast", COPY = "copy";

    /** The entries, loaded on first use (holder idiom: no ordering trap between static initialisers). */
    private static final class Table {
        static final Map<String, OpSpec> SPECS = load();
    }

    private OpRegistry() { }

    /** The entry of {@code kind}, or null for a kind outside the registry. */
    public static OpSpec get(String kind) {
        return Table.SPECS.get(kind);
    }

    public static boolean knows(String kind) {
        return Table.SPECS.containsKey(kind);
    }

    /** Every entry, in the table's order. */
    public static Collection<OpSpec> all() {
        return Table.SPECS.values();
    }

    /** Kinds whose output may be declared a view of their input. */
    public static Set<String> viewKinds() {
        Set<String> s = new java.util.LinkedHashSet<>();
        for (OpSpec o : Table.SPECS.values()) if (o.mayBeView()) s.add(o.kind());
        return Collections.unmodifiableSet(s);
    }

    /** Every kernel name some entry lowers to. */
    public static Set<String> kernels() {
        Set<String> s = new java.util.TreeSet<>();
        for (OpSpec o : Table.SPECS.values()) s.addAll(o.kernels());
        return Collections.unmodifiableSet(s);
    }

    private static Map<String, OpSpec> load() {
        List<OpTable> tables = ServiceLoader.load(OpTable.class, OpRegistry.class.getClassLoader()).stream().map(ServiceLoader.Provider::get).toList();
        if (tables.size() != 1)
            throw new IllegalStateException("expected one org.arenaplan.ir.OpTable service (org.arenaplan.ops.Operators), found " + tables.size());
        Map<String, OpSpec> m = new LinkedHashMap<>();
        for (OpSpec s : tables.get(0).specs()) {
            if (m.put(s.kind(), s) != null) throw new IllegalStateException("op kind " + s.kind() + " registered twice");
        }
        return Collections.unmodifiableMap(m);
    }
}
