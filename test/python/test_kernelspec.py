"""The installed kernelspec is what Jupyter expects and finds."""
import json

from jupyter_client.kernelspec import KernelSpecManager


def test_kernelspec_is_found_with_message_interrupts(kernelspec_dir):
    spec = KernelSpecManager().get_kernel_spec("searchbook")
    assert spec.resource_dir == str(kernelspec_dir)
    assert spec.interrupt_mode == "message"
    assert spec.language == "searchbook"
    assert spec.argv[-2:] == ["kernel", "{connection_file}"]
    assert (kernelspec_dir / "logo-64x64.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert json.loads((kernelspec_dir / "kernel.json").read_text())["display_name"] == "searchbook"
