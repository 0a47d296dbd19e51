# lit configuration for refcpu's FileCheck tests.
import os
import lit.formats

config.name = "refcpu"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir", ".ttir", ".test"]
config.excludes = ["Corpus", "Semantics", "lit.cfg.py", "lit.site.cfg.py", "CMakeLists.txt"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.refcpu_obj_root, "test")

config.environment["PATH"] = os.pathsep.join(
    [config.refcpu_tools_dir, config.llvm_tools_dir, config.environment.get("PATH", "")])
config.substitutions.append(("%corpus", os.path.join(config.test_source_root, "Corpus", "cases")))
