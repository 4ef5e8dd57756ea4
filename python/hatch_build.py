"""Tags the wheel for the platform it is built on: it carries native Node.js addons (zeromq,
the OS keyring) compiled for one platform, and no Python extension modules."""
import sysconfig
from pathlib import Path

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


class CustomBuildHook(BuildHookInterface):
    def initialize(self, version, build_data):
        if self.target_name != "wheel":
            return
        if not (Path(self.root) / "searchbook" / "node" / "bin" / "searchbook.js").is_file():
            raise RuntimeError("the bundled kernel is not staged: build the wheel from the repository root with `npm run build:wheel`")
        build_data["pure_python"] = False
        build_data["tag"] = "py3-none-" + sysconfig.get_platform().replace("-", "_").replace(".", "_")
