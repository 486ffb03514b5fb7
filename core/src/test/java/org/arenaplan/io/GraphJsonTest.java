package org.arenaplan.io;

import org.arenaplan.ir.DType;
import org.arenaplan.ir.Graph;
import org.arenaplan.ir.GraphBuilder;
import org.arenaplan.ir.Op;
import org.arenaplan.ir.Tensor;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class GraphJsonTest {

    /** Every feature the format carries: dtype/shape and bytes-only tensors, donation, fills, views, members, in-place, streams, attrs. */
    static Graph everything() {
        return new GraphBuilder("everything")
                .tensor("x", DType.F32, 4, 8).tensor("w", DType.F16, 8, 8).tensor("ones", 64)
                .tensor("a", DType.F32, 4, 8).tensor("r", DType.F32, 32).tensor("b", DType.F32, 32)
                .tensor("c", DType.F32, 8, 8).tensor("p", 128).tensor("q", 128).tensor("y", DType.F32, 2, 8)
                .input("x", true).weight("w").weight("ones", 1.0).output("y")
                .op("mm", "FusedMatMul").in("x", "w").out("a").attr("alpha", 1.0).attr("transA", 0L).attr("perm", new long[]{1, 0})
                    .attr("scales", new double[]{0.5, 2.0}).attr("mode", "exact").attr("names", new String[]{"Tanh", "Relu"}).add()
                .op("flat", "Reshape").in("a").out("r").view().add()
                .op("relu", "Relu").in("r").out("b").inPlace().stream(1).add()
                .op("p1", "Relu").in("b").out("p").add()
                .op("q1", "Relu").in("b").out("q").add()
                .op("cat", "Concat").in("p", "q").out("c").member(0, 0, 0).member(1, 0, 128).attr("axis", 0L).add()
                .op("slice", "Slice").in("c").out("y").view(0, 0, 64).add()
                .build();
    }

    @Test
    void roundTripKeepsEveryField() {
        Graph g = everything();
        String json = GraphJson.toString(g);
        Graph back = GraphJson.parse(json, "g.json");

        assertThat(back.name()).isEqualTo("everything");
        assertThat(back.tensors()).isEqualTo(g.tensors());
        assertThat(back.tensor("ones").dtype()).isNull();
        assertThat(back.inputs()).isEqualTo(g.inputs());
        assertThat(back.donated()).containsExactly("x");
        assertThat(back.weights()).isEqualTo(g.weights());
        assertThat(back.weightFill("ones")).isEqualTo(1.0);
        assertThat(back.weightFill("w")).isNull();
        assertThat(back.outputs()).containsExactly("y");
        assertThat(back.ops()).hasSameSizeAs(g.ops());
        for (int i = 0; i < g.opCount(); i++) {
            Op a = g.ops().get(i), b = back.ops().get(i);
            assertThat(b.name()).isEqualTo(a.name());
            assertThat(b.kind()).isEqualTo(a.kind());
            assertThat(b.inputs()).isEqualTo(a.inputs());
            assertThat(b.outputs()).isEqualTo(a.outputs());
            assertThat(b.stream()).isEqualTo(a.stream());
            assertThat(b.views()).isEqualTo(a.views());
            assertThat(b.members()).isEqualTo(a.members());
            assertThat(b.inPlace()).isEqualTo(a.inPlace());
            assertThat(b.attrs().keySet()).isEqualTo(a.attrs().keySet());
            for (String k : a.attrs().keySet()) assertThat(b.attrs().get(k)).as(a.name() + "." + k).isEqualTo(a.attrs().get(k));
        }
        assertThat(back.ops().get(0).attrs().get("alpha")).isInstanceOf(Double.class);
        assertThat(back.ops().get(0).attrs().get("transA")).isInstanceOf(Long.class);
        assertThat(GraphJson.toString(back)).isEqualTo(json);
    }

    @Test
    void roundTripThroughAFile(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        Path f = dir.resolve("g.json");
        GraphJson.write(everything(), f);
        assertThat(GraphJson.read(f).tensors()).isEqualTo(everything().tensors());
    }

    @Test
    void bytesMayComeFromDtypeAndShapeAlone() {
        Graph g = GraphJson.parse("""
                {"format": "arenaplan-graph/1",
                 "tensors": [{"name": "x", "dtype": "float32", "shape": [2, 3]}, {"name": "y", "bytes": 24}],
                 "inputs": [{"name": "x"}], "outputs": ["y"],
                 "ops": [{"name": "r", "kind": "Relu", "inputs": ["x"], "outputs": ["y"]}]}""", "small.json");
        assertThat(g.tensor("x")).isEqualTo(Tensor.of("x", DType.F32, 2, 3));
        assertThat(g.tensor("y").bytes()).isEqualTo(24);
    }

    @Test
    void anOpKindThatCannotNameAnOpIsRefusedNamingThePath() {
        // An empty kind, one wrapped in white space (" Relu" would be an opaque kind, its hints
        // trusted), a control character (it would split the one-line messages) and an empty part
        // around a '.' (".", "Relu.": a domain is domain.Name) are bad input; inner spaces and a
        // real domain are names.
        String[][] bad = {{"", "an op kind must not be empty"}, {"  ", "an op kind must not be empty"},
                {" Relu", "op kind 'Relu' has white space around it"}, {"MatM\\nul", "op kind holds a control character (U+000A)"},
                {".", "has an empty part around a '.'"}, {"Relu.", "has an empty part around a '.'"}, {"a..b", "has an empty part around a '.'"}};
        for (String[] c : bad) {
            assertThatThrownBy(() -> GraphJson.parse(withKind(c[0]), "g.json")).as(c[0]).isInstanceOf(InputException.class)
                    .hasMessageStartingWith("g.json: $.ops[0].kind: ").hasMessageContaining(c[1]).hasMessageContaining("(op 'r')");
        }
        for (String ok : new String[]{"My Fused Op", "custom.Tranpose", "MyFusedThing"})
            assertThat(GraphJson.parse(withKind(ok), "g.json").ops().get(0).kind()).isEqualTo(ok);
    }

    /** A list entry given twice (an in-place hint, a view) is bad input naming both paths; it was accepted and its refusal printed twice (review, breaker8). */
    @Test
    void anEntryGivenTwiceIsBadInput() {
        String twice = "{\"format\": \"arenaplan-graph/1\", \"tensors\": [{\"name\": \"x\", \"bytes\": 4}, {\"name\": \"y\", \"bytes\": 4}],"
                + " \"inputs\": [{\"name\": \"x\"}], \"outputs\": [\"y\"],"
                + " \"ops\": [{\"name\": \"r\", \"kind\": \"Relu\", \"inputs\": [\"x\"], \"outputs\": [\"y\"], \"LIST\": [ENTRY, ENTRY]}]}";
        assertThatThrownBy(() -> GraphJson.parse(twice.replace("LIST", "inplace").replace("ENTRY", "{\"output\": 0, \"input\": 0}"), "g.json"))
                .isInstanceOf(InputException.class).hasMessage("g.json: $.ops[0].inplace[1]: repeats $.ops[0].inplace[0]");
        assertThatThrownBy(() -> GraphJson.parse(twice.replace("LIST", "views").replace("ENTRY", "{\"output\": 0, \"input\": 0}"), "g.json"))
                .isInstanceOf(InputException.class).hasMessage("g.json: $.ops[0].views[1]: repeats $.ops[0].views[0]");
    }

    private static String withKind(String kind) {
        return "{\"format\": \"arenaplan-graph/1\", \"tensors\": [{\"name\": \"x\", \"bytes\": 4}, {\"name\": \"y\", \"bytes\": 4}],"
                + " \"inputs\": [{\"name\": \"x\"}], \"outputs\": [\"y\"],"
                + " \"ops\": [{\"name\": \"r\", \"kind\": \"" + kind + "\", \"inputs\": [\"x\"], \"outputs\": [\"y\"]}]}";
    }

    private static String withTensor(String tensor) {
        return "{\"format\": \"arenaplan-graph/1\", \"tensors\": [" + tensor + "], \"ops\": []}";
    }

    @Test
    void malformedJsonNamesFileLineAndColumn() {
        assertThatThrownBy(() -> GraphJson.parse("{\"format\": \"arenaplan-graph/1\",\n  \"tensors\": [,]}", "bad.json"))
                .isInstanceOf(InputException.class).hasMessageStartingWith("bad.json:2:").hasMessageContaining("malformed JSON");
    }

    /** breaker14: these ended with Jackson's "enable `JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS` to allow", advice a user cannot follow. */
    @Test
    void nonJsonNumbersAndCommentsAreNamedInJsonsWords() {
        String notANumber = "' is not a JSON number (JSON has no NaN or Infinity; write a finite number)";
        Map<String, String> said = Map.of("\"bytes\": NaN", "'NaN" + notANumber, "\"bytes\": -Infinity", "'-Infinity" + notANumber,
                "\"bytes\": +5", "a number with a '+' sign: JSON numbers take none (write 5, not +5)",
                "/* c */ \"bytes\": 5", "a comment ('/'): JSON has no comments; remove it");
        said.forEach((field, words) -> assertThatThrownBy(() -> GraphJson.parse(withTensor("{\"name\": \"x\", " + field + "}"), "n.json"))
                .hasMessageStartingWith("n.json:1:").hasMessageEndingWith(": malformed JSON: " + words));
    }

    @Test
    void aRawControlCharacterDeepNestingAndAnOutOfRangeNumberAreNamedInJsonsWordsNotJacksons() {
        // were "Illegal unquoted character ((CTRL-CHAR, code 1)): has to be escaped using backslash to be included in string value"
        // and "Document nesting depth (1001) exceeds the maximum allowed (1000, from `StreamReadConstraints.getMaxNestingDepth()`)" (breaker15)
        assertThatThrownBy(() -> GraphJson.parse(withTensor("{\"name\": \"x\u0001y\", \"bytes\": 4}"), "c.json"))
                .hasMessageStartingWith("c.json:1:").hasMessageEndingWith(": malformed JSON: a control character (U+0001) inside a string: JSON strings write it escaped (\\u0001, or \\n, \\t ...)");
        assertThatThrownBy(() -> GraphJson.parse(withTensor("{\"name\": \"x\", \"bytes\": 1e400}"), "e.json"))
                .hasMessage("e.json: $.tensors[0].bytes: expected a whole number that fits in 64 bits, found a number beyond the range of a double (|x| > 1.8e308), read as infinity");
        String deep = "[".repeat(1001) + "]".repeat(1001);
        assertThatThrownBy(() -> GraphJson.parse(withTensor("{\"name\": \"x\", \"bytes\": 4, \"extra\": " + deep + "}"), "d.json"))
                .hasMessageStartingWith("d.json").hasMessageEndingWith(": malformed JSON: arrays and objects nested more than 1000 deep; arenaplan reads at most 1000 levels")
                .hasMessageNotContaining("StreamReadConstraints");
    }

    @Test
    void faultsNameTheJsonPath() {
        assertThatThrownBy(() -> GraphJson.parse(withTensor("{\"name\": \"x\", \"bytes\": \"ten\"}"), "g.json"))
                .isInstanceOf(InputException.class).hasMessage("g.json: $.tensors[0].bytes: expected a whole number that fits in 64 bits, found \"ten\"");
        assertThatThrownBy(() -> GraphJson.parse(withTensor("{\"name\": \"x\", \"bytes\": -4}"), "g.json"))
                .hasMessage("g.json: $.tensors[0].bytes: negative size -4 for tensor 'x'");
        assertThatThrownBy(() -> GraphJson.parse(withTensor("{\"name\": \"x\", \"bytes\": 4, \"dtyp\": \"f32\"}"), "g.json"))
                .hasMessageStartingWith("g.json: $.tensors[0].dtyp: unknown field");
        assertThatThrownBy(() -> GraphJson.parse(withTensor("{\"name\": \"x\", \"dtype\": \"f33\", \"shape\": [1]}"), "g.json"))
                .hasMessage("g.json: $.tensors[0].dtype: unknown dtype 'f33' for tensor 'x'");
        assertThatThrownBy(() -> GraphJson.parse(withTensor("{\"name\": \"x\", \"bytes\": 5, \"dtype\": \"f32\", \"shape\": [2]}"), "g.json"))
                .hasMessageStartingWith("g.json: $.tensors[0].bytes: 5 does not match dtype f32");
        assertThatThrownBy(() -> GraphJson.parse(withTensor("{\"name\": \"x\"}"), "g.json"))
                .hasMessageStartingWith("g.json: $.tensors[0].bytes: missing");
        assertThatThrownBy(() -> GraphJson.parse(withTensor("{\"name\": \"x\", \"bytes\": 99999999999999999999}"), "g.json"))
                .hasMessageStartingWith("g.json: $.tensors[0].bytes: expected a whole number that fits in 64 bits");
    }

    /** newcomer: an op named "" was planned, its peak line reading {@code op ''}; refused as an empty tensor name is. */
    @Test
    void anEmptyOpNameIsRefusedNamingThePathAndTheNode() {
        String json = "{\"format\": \"arenaplan-graph/1\", \"tensors\": [{\"name\": \"x\", \"bytes\": 4}, {\"name\": \"y\", \"bytes\": 4},"
                + " {\"name\": \"z\", \"bytes\": 4}], \"inputs\": [{\"name\": \"x\"}], \"outputs\": [\"z\"], \"ops\": ["
                + "{\"name\": \"a\", \"kind\": \"Relu\", \"inputs\": [\"x\"], \"outputs\": [\"y\"]},"
                + " {\"name\": \"\", \"kind\": \"Relu\", \"inputs\": [\"y\"], \"outputs\": [\"z\"]}]}";
        assertThatThrownBy(() -> GraphJson.parse(json, "g.json"))
                .isInstanceOf(InputException.class)
                .hasMessage("g.json: $.ops[1].name: empty: every op needs a name, by which errors, plans and events refer to it (the Relu at position 1)");
    }

    /** review2: a tensor named "" was accepted (ops and outputs refer to tensors by name, and '' names none). */
    @Test
    void anEmptyTensorNameIsRefusedNamingThePath() {
        assertThatThrownBy(() -> GraphJson.parse(withTensor("{\"name\": \"\", \"bytes\": 4}"), "g.json"))
                .isInstanceOf(InputException.class).hasMessage("g.json: $.tensors[0].name: empty: every tensor needs a name, by which ops, inputs and outputs refer to it");
    }

    /** A name of whitespace only was accepted (only "" was refused): it names nothing a reader of a plan or an error can see. */
    @Test
    void aBlankTensorOrOpNameIsRefusedNamingThePath() {
        assertThatThrownBy(() -> GraphJson.parse(withTensor("{\"name\": \"  \", \"bytes\": 4}"), "g.json"))
                .isInstanceOf(InputException.class)
                .hasMessage("g.json: $.tensors[0].name: blank (only whitespace: '  '): every tensor needs a name, by which ops, inputs and outputs refer to it");
        String json = "{\"format\": \"arenaplan-graph/1\", \"tensors\": [{\"name\": \"x\", \"bytes\": 4}, {\"name\": \"y\", \"bytes\": 4}],"
                + " \"inputs\": [{\"name\": \"x\"}], \"outputs\": [\"y\"], \"ops\": [{\"name\": \" \\t\", \"kind\": \"Relu\", \"inputs\": [\"x\"], \"outputs\": [\"y\"]}]}";
        assertThatThrownBy(() -> GraphJson.parse(json, "g.json"))
                .isInstanceOf(InputException.class)
                .hasMessage("g.json: $.ops[0].name: blank (only whitespace: ' \\u0009'): every op needs a name, by which errors, plans and events refer to it (the Relu at position 0)");
    }

    @Test
    void theFormatIsChecked() {
        assertThatThrownBy(() -> GraphJson.parse("{\"tensors\": [], \"ops\": []}", "g.json")).hasMessageStartingWith("g.json: $.format: missing");
        assertThatThrownBy(() -> GraphJson.parse("{\"format\": \"arenaplan-graph/9\", \"tensors\": [], \"ops\": []}", "g.json"))
                .hasMessageContaining("unsupported format");
        assertThatThrownBy(() -> GraphJson.parse("[1, 2]", "g.json")).hasMessage("g.json: $: expected an object");
    }

    @Test
    void graphFaultsNameTheFileAndTheOp() {
        String json = """
                {"format": "arenaplan-graph/1",
                 "tensors": [{"name": "x", "bytes": 4}, {"name": "y", "bytes": 4}],
                 "inputs": [{"name": "x"}],
                 "ops": [{"name": "r", "kind": "Relu", "inputs": ["z"], "outputs": ["y"]}]}""";
        assertThatThrownBy(() -> GraphJson.parse(json, "g.json")).isInstanceOf(InputException.class)
                .hasMessage("g.json: op 'r' (Relu, position 0) reads unknown tensor 'z'");
        String badStream = json.replace("\"inputs\": [\"z\"]", "\"inputs\": [\"x\"], \"stream\": -1");
        assertThatThrownBy(() -> GraphJson.parse(badStream, "g.json")).hasMessageStartingWith("g.json: $.ops[0].stream: stream must be in");
        // the copy stream takes the number after the last stream; Integer.MAX_VALUE + 1 would wrap to a negative stream
        String lastInt = json.replace("\"inputs\": [\"z\"]", "\"inputs\": [\"x\"], \"stream\": 2147483647");
        assertThatThrownBy(() -> GraphJson.parse(lastInt, "g.json")).hasMessage(
                "g.json: $.ops[0].stream: stream must be in [0, 2147483646], found 2147483647 (the copy stream takes the number after the last)");
    }

    /** A JSON null was read as the field's default ("byte_offset": null as 0, "donated": null as false, "stream": null as 0); frontdoor helper. */
    @Test
    void aNullFieldIsRefusedNamingThePathNotReadAsItsDefault() {
        String json = """
                {"format": "arenaplan-graph/1", "name": NAME,
                 "tensors": [{"name": "x", "bytes": 8, "dtype": DTYPE}, {"name": "y", "bytes": 8}],
                 "inputs": [{"name": "x", "donated": DONATED}], "outputs": ["y"], "weights": WEIGHTS,
                 "ops": [{"name": "r", "kind": "Reshape", "inputs": ["x"], "outputs": ["y"], "stream": STREAM, "attrs": ATTRS,
                          "views": [{"output": 0, "input": 0, "byte_offset": OFFSET}]}]}""";
        Map<String, String> fine = Map.of("NAME", "\"g\"", "DTYPE", "\"f32\"", "DONATED", "false", "WEIGHTS", "[]", "STREAM", "0", "ATTRS", "{}", "OFFSET", "0");
        assertThat(GraphJson.parse(fill(json, fine, ""), "g.json").ops()).hasSize(1);
        Map<String, String> paths = Map.of("NAME", "$.name", "DTYPE", "$.tensors[0].dtype", "DONATED", "$.inputs[0].donated", "WEIGHTS", "$.weights",
                "STREAM", "$.ops[0].stream", "ATTRS", "$.ops[0].attrs", "OFFSET", "$.ops[0].views[0].byte_offset");
        for (String field : paths.keySet())
            assertThatThrownBy(() -> GraphJson.parse(fill(json, fine, field), "g.json")).as(field).isInstanceOf(InputException.class)
                    .hasMessage("g.json: " + paths.get(field) + ": null: leave the field out to take its default, or give a value (null is not read as the default)");
        assertThatThrownBy(() -> GraphJson.parse(fill(json, fine, "").replace("\"kind\": \"Reshape\"", "\"kind\": null"), "g.json"))
                .hasMessage("g.json: $.ops[0].kind: null where a value is required");
    }

    /** {@code json} with each placeholder replaced by its value in {@code values}, except {@code nulled}'s by null. */
    private static String fill(String json, Map<String, String> values, String nulled) {
        for (Map.Entry<String, String> e : values.entrySet()) json = json.replace(e.getKey(), e.getKey().equals(nulled) ? "null" : e.getValue());
        return json;
    }

    /** A 1 MB tensor or op name was printed whole in its one-line error (frontdoor helper): cut after 200 characters, its length said. */
    @Test
    void aMegabyteNameIsCutInTheMessage() {
        String longName = "t".repeat(1_000_000);
        String json = """
                {"format": "arenaplan-graph/1",
                 "tensors": [{"name": "x", "bytes": 4}, {"name": "y", "bytes": 4}],
                 "inputs": [{"name": "x"}],
                 "ops": [{"name": "OP", "kind": "Relu", "inputs": ["IN"], "outputs": ["y"]}]}""";
        assertThatThrownBy(() -> GraphJson.parse(json.replace("OP", "r").replace("IN", longName), "g.json")).isInstanceOf(InputException.class)
                .hasMessage("g.json: op 'r' (Relu, position 0) reads unknown tensor '" + "t".repeat(200) + "… (1000000 chars)'");
        assertThatThrownBy(() -> GraphJson.parse(json.replace("OP", longName).replace("IN", "z"), "g.json"))
                .hasMessage("g.json: op '" + "t".repeat(200) + "… (1000000 chars)' (Relu, position 0) reads unknown tensor 'z'");
        String longKey = "k".repeat(40_000);
        assertThatThrownBy(() -> GraphJson.parse(json.replace("\"ops\"", "\"" + longKey + "\"").replace("IN", "x"), "g.json"))
                .hasMessageStartingWith("g.json: $." + "k".repeat(200) + "… (40000 chars): unknown field");
        assertThatThrownBy(() -> GraphJson.parse(json.replace("\"ops\"", "\"" + longKey + "\": 1, \"" + longKey + "\"").replace("IN", "x"), "g.json"))
                .hasMessageEndingWith(": malformed JSON: field '" + "k".repeat(200) + "… (40000 chars)' given twice in one object");
        // past Jackson's limit on a field name: was "Name length (65536) exceeds the maximum allowed (50000, from `StreamReadConstraints.getMaxNameLength()`)"
        assertThatThrownBy(() -> GraphJson.parse(json.replace("\"ops\"", "\"" + longName + "\"").replace("IN", "x"), "g.json"))
                .hasMessageEndingWith(": malformed JSON: a field name longer than 50,000 characters; arenaplan reads at most 50,000");
    }

    /** A weight w of type DT filled with FILL, cast to y. */
    private static final String FILLED_WEIGHT = """
            {"format": "arenaplan-graph/1", "tensors": [{"name": "x", "dtype": "f32", "shape": [4]}, {"name": "w", "dtype": "DT", "shape": [4]},
             {"name": "y", "dtype": "f32", "shape": [4]}], "inputs": [{"name": "x"}], "outputs": ["y"], "weights": [{"name": "w", "fill": FILL}],
             "ops": [{"name": "c", "kind": "Cast", "inputs": ["w"], "outputs": ["y"], "attrs": {"to": 1}}]}""";

    /** breaker10: a third input without has_past read "takes 2 inputs for has_bias and has_past, got 3"; graph JSON needs the has_* attributes, ONNX does not. */
    @Test
    void causalConvWithStateInputsBeyondItsHasAttributesNameTheAttributeToSet() {
        String g = """
                {"format": "arenaplan-graph/1", "tensors": [{"name": "x", "dtype": "f32", "shape": [1, 2, 3]}, {"name": "w", "dtype": "f32", "shape": [2, 1, 2]},
                 {"name": "p", "dtype": "f32", "shape": [1, 2, 1]}, {"name": "y", "dtype": "f32", "shape": [1, 2, 3]}],
                 "inputs": [{"name": "x"}, {"name": "w"}, {"name": "p"}], "outputs": ["y"],
                 "ops": [{"name": "cc", "kind": "CausalConvWithState", "inputs": ["x", "w", "p"], "outputs": ["y"]ATTRS}]}""";
        assertThatThrownBy(() -> GraphJson.parse(g.replace("ATTRS", ""), "g.json")).isInstanceOf(InputException.class)
                .hasMessageContaining("op 'cc' (CausalConvWithState").hasMessageEndingWith(
                        "takes 2 inputs with has_bias=0 and has_past=0, got 3 (set has_bias: 1 for bias, has_past: 1 for past_state)");
        assertThat(GraphJson.parse(g.replace("ATTRS", ", \"attrs\": {\"has_past\": 1}"), "g.json").ops()).hasSize(1);
    }

    /** A fill the weight's type cannot hold was converted silently (300 in i8 to 44, 1.5 in i4 to 2, 1e6 in f16 to infinity: breaker9's finding 4). */
    @Test
    void aFillTheWeightsTypeCannotHoldIsBadInput() {
        String g = FILLED_WEIGHT;
        String[][] bad = {{"i8", "300", "integers -128 to 127"}, {"i8", "1.5", "integers -128 to 127"}, {"i4", "8", "integers -8 to 7"},
                {"u8", "-1", "integers 0 to 255"}, {"bool", "0.5", "integers 0 to 1"}, {"f16", "1000000", "at most 65504.0 in magnitude"},
                {"f8e4m3fn", "1000", "at most 448.0 in magnitude"}};
        for (String[] c : bad)
            assertThatThrownBy(() -> GraphJson.parse(g.replace("DT", c[0]).replace("FILL", c[1]), "g.json")).as(c[0] + " " + c[1])
                    .isInstanceOf(InputException.class).hasMessageStartingWith("g.json: $.weights[0].fill: " + c[1] + " does not fit weight 'w' of type " + c[0])
                    .hasMessageContaining(c[2]);
        String[][] ok = {{"i8", "-128"}, {"i4", "-8"}, {"u64", "0"}, {"bool", "1"}, {"f16", "65504"}, {"f16", "0.1"}, {"f32", "1e30"},
                {"i64", "9007199254740992"}, {"i64", "-9223372036854775808"}, {"u64", "9223372036854775808"}, {"i64", "1e3"}};
        for (String[] c : ok) assertThat(GraphJson.parse(g.replace("DT", c[0]).replace("FILL", c[1]), "g.json").weightFill("w")).as(c[0]).isNotNull();
    }

    /** An int64/uint64 fill past 2^53 went through a double: 2^63 passed as int64 and became 2^63 - 1, 2^53 + 1 became 2^53 (breaker10's finding 1). */
    @Test
    void aSixtyFourBitFillADoubleCannotHoldExactlyIsBadInput() {
        String g = FILLED_WEIGHT;
        String[][] bad = {{"i64", "9223372036854775808"}, {"i64", "-9223372036854775809"}, {"i64", "9007199254740993"}, {"i64", "123456789012345678"},
                {"u64", "18446744073709551616"}, {"u64", "18446744073709551615"}};
        for (String[] c : bad)
            assertThatThrownBy(() -> GraphJson.parse(g.replace("DT", c[0]).replace("FILL", c[1]), "g.json")).as(c[0] + " " + c[1])
                    .isInstanceOf(InputException.class).hasMessageStartingWith("g.json: $.weights[0].fill: " + c[1] + " does not fit weight 'w' of type " + c[0]);
        assertThatThrownBy(() -> GraphJson.parse(g.replace("DT", "i64").replace("FILL", "9007199254740993"), "g.json"))
                .hasMessageContaining("exactly: a fill is read as a double, which holds every integer up to 2^53 (9007199254740992) but not this one (it reads 9007199254740992)");
    }

    @Test
    void missingFileIsAnIOException(@org.junit.jupiter.api.io.TempDir Path dir) {
        assertThatThrownBy(() -> GraphJson.read(dir.resolve("none.json"))).isInstanceOf(java.nio.file.NoSuchFileException.class);
        assertThat(Files.exists(dir.resolve("none.json"))).isFalse();
    }
}
