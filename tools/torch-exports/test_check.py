"""Tests of check.py's refusals that need no arenaplan run: python3 -m unittest test_check (in this folder;
needs the onnx package to write the one model). Each case is refused before the jar would run, so --jar
names this file."""
import os, subprocess, sys, tempfile, unittest

HERE = os.path.dirname(os.path.abspath(__file__))


def check(*dirs):
    p = subprocess.run([sys.executable, os.path.join(HERE, "check.py"), *dirs, "--jar", __file__],
                       capture_output=True, text=True)
    return p.returncode, p.stdout + p.stderr


class CheckTest(unittest.TestCase):
    def test_a_data_set_without_outputs_or_with_extra_inputs_is_refused_not_matched(self):
        try:
            onnx = __import__("onnx")
        except ImportError:
            self.skipTest("the onnx package is absent (it writes this test's model): run with the venv of requirements.txt")
        from onnx import helper as H, TensorProto as T, numpy_helper as nh
        import numpy as np
        g = H.make_graph([H.make_node("Relu", ["x"], ["y"])], "g", [H.make_tensor_value_info("x", T.FLOAT, [2])],
                         [H.make_tensor_value_info("y", T.FLOAT, [2])])
        with tempfile.TemporaryDirectory() as d:
            for case, files in (("noout", ["input_0"]), ("extra", ["input_0", "input_1", "output_0"])):
                os.makedirs(os.path.join(d, case, "test_data_set_0"))
                onnx.save(H.make_model(g), os.path.join(d, case, "model.onnx"))
                for f in files:
                    onnx.save_tensor(nh.from_array(np.ones(2, np.float32)), os.path.join(d, case, "test_data_set_0", f + ".pb"))
            rc, out = check(d)
        self.assertEqual(1, rc, out)
        self.assertIn("no output_K.pb, so nothing to compare", out)
        self.assertIn("2 input_K.pb but the model has 1 graph input(s) (x)", out)
        self.assertIn("cases: 0 of 2 match (0 NO, 2 refused, 0 crashed)", out)

    def test_a_meta_json_that_does_not_read_or_names_no_output_is_refused_in_its_row(self):
        with tempfile.TemporaryDirectory() as d:
            for name, text in (("bad", "{bad"), ("empty", '{"file": "m.onnx", "inputs": {}, "outputs": []}'),
                               ("nofile", '{"inputs": {}, "outputs": []}')):
                with open(os.path.join(d, name + ".meta.json"), "w") as f:
                    f.write(text)
            rc, out = check(d)
        self.assertEqual(1, rc, out)
        self.assertNotIn("Traceback", out)
        self.assertIn("bad.meta.json: Expecting property name", out)
        self.assertIn("empty.meta.json: 'outputs' is empty, so nothing to compare", out)
        self.assertIn("nofile.meta.json: no field 'file'", out)
        self.assertIn("exports: 0 of 3 match", out)

    def test_a_run_onnx_runtime_fails_matches_only_where_arenaplan_refuses_it(self):
        # reference_error (export.py's failures=True): the 'jar' here is no jar, so java exits 1, not arenaplan's refusal (2)
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, "fails.meta.json"), "w") as f:
                f.write('{"file": "m.onnx", "inputs": {}, "outputs": [], "reference_error": "Non-zero status code returned while running ArgMax node"}')
            rc, out = check(d)
        self.assertEqual(1, rc, out)
        self.assertIn("ONNX Runtime fails it (Non-zero status code returned while running ArgMax node), but arenaplan gave rc=1", out)
        self.assertIn("exports: 0 of 1 match", out)

    def test_a_missing_folder_is_named_as_missing(self):
        # it said "no *.meta.json in ..., nor ONNX backend test cases", as for a folder without models
        with tempfile.TemporaryDirectory() as d:
            missing = os.path.join(d, "nowhere")
            rc, out = check(missing)
            self.assertEqual(1, rc, out)
            self.assertEqual(f"check.py: {missing}: no such folder", out.strip())
            rc, out = check(d, __file__)
            self.assertEqual(1, rc, out)
            self.assertEqual(f"check.py: {__file__}: not a folder", out.strip())


if __name__ == "__main__":
    unittest.main()
