package org.arenaplan.onnx;

import org.arenaplan.ir.DType;
import org.arenaplan.ir.TensorValue;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The token-id inputs of the shared transformer models ({@code ../shared/models/real}) are read
 * as int64 with their true size (8 bytes per id), and are valid ids of the model's vocabulary.
 * Skipped when the shared folder is absent.
 */
class RealModelInputsTest {

    @ParameterizedTest
    @CsvSource({"bert_tiny_input_0.pb, 1000", "bert_tiny_input_1.pb, 2", "gpt2_tiny_input_0.pb, 500"})
    void tokenIdsAreInt64OfTheirTrueSize(String file, long bound) {
        Path p = OnnxModelsTest.dir().resolveSibling("real").resolve(file);
        if (!Files.isRegularFile(p)) {
            System.out.println("shared input " + p.toAbsolutePath().normalize() + " is absent; skipping");
            Assumptions.abort("shared input " + p + " is absent");
        }
        TensorValue v = OnnxTensorFile.read(p).value();
        assertThat(v.dtype()).isEqualTo(DType.I64);
        assertThat(v.shape()).containsExactly(1, 32);
        assertThat(v.byteCount()).isEqualTo(32 * 8);
        for (long id : v.longs()) assertThat(id).isBetween(0L, bound - 1);
    }
}
