package org.arenaplan.ir;

import java.util.List;

/**
 * The source of {@link OpRegistry}'s entries, found with {@link java.util.ServiceLoader} (as
 * {@code device.DeviceProvider} is): {@code org.arenaplan.ops.Operators}, where each op kind's
 * facts are declared next to its lowering and its ONNX import. This pure package reads the facts
 * without depending on the device code the lowering needs.
 */
public interface OpTable {
    /** Every op kind's entry, in the table's order (the order of the README's operator table). */
    List<OpSpec> specs();
}
