"""tests/data/preload/ctypes_client.py — a Python program that drives /dev/kfd the way
tinygrad's AMD runtime does: os.open, fcntl.ioctl, os.listdir and open() on sysfs, and libc's
mmap/munmap/ioctl through ctypes (looked up with dlsym on libc's handle).  Run under
`rdx emu`; prints "ctypes: ok" or the first step that failed (exit 1)."""
import ctypes
import ctypes.util
import fcntl
import mmap
import os
import struct
import sys

TOPO = "/sys/devices/virtual/kfd/kfd/topology/nodes"


def ioc(dir_, nr, size):
    return (dir_ << 30) | (size << 16) | (ord("K") << 8) | nr


def fail(msg):
    print("ctypes: " + msg)
    sys.exit(1)


libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
libc.mmap.restype = ctypes.c_void_p
libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int,
                      ctypes.c_long]
libc.munmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t]

nodes = [n for n in os.listdir(TOPO) if int(open(f"{TOPO}/{n}/gpu_id").read()) != 0]
if not nodes:
    fail("no GPU node in the topology")
props = dict(l.split() for l in open(f"{TOPO}/{nodes[0]}/properties").read().splitlines())
gpu_id = int(open(f"{TOPO}/{nodes[0]}/gpu_id").read())
if int(props["gfx_target_version"]) != 110000:
    fail("gfx_target_version " + props["gfx_target_version"])

# the IP versions, read as tinygrad does (GC_HWID 11)
ip_base = f"/sys/class/drm/renderD{props['drm_render_minor']}/device/ip_discovery/die/0"
if "11" not in os.listdir(ip_base):
    fail("no GC in the IP discovery table")
gc = tuple(int(open(f"{ip_base}/11/0/{p}").read()) for p in ("major", "minor", "revision"))
if gc != (11, 0, 0):
    fail(f"GC version {gc}")

kfd = os.open("/dev/kfd", os.O_RDWR | os.O_CLOEXEC)
drm = os.open(f"/dev/dri/renderD{props['drm_render_minor']}", os.O_RDWR | os.O_CLOEXEC)

# GET_VERSION through ctypes (the request passed as a C int, as ctypes does) and fcntl.ioctl
buf = ctypes.create_string_buffer(8)
if libc.ioctl(kfd, ioc(2, 0x01, 8), buf) != 0 or struct.unpack("II", buf.raw)[0] != 1:
    fail("GET_VERSION through ctypes")
ver = bytearray(8)
fcntl.ioctl(kfd, ioc(2, 0x01, 8), ver)
if struct.unpack("II", ver)[0] != 1:
    fail("GET_VERSION through fcntl.ioctl")

# ACQUIRE_VM {drm_fd, gpu_id}
fcntl.ioctl(kfd, ioc(1, 0x15, 8), struct.pack("II", drm, gpu_id))

# VRAM at a reserved address, mapped for the CPU with libc.mmap (MAP_FIXED on the render node)
size = 1 << 20
va = libc.mmap(None, size, 0, mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS | 0x4000, -1, 0)  # MAP_NORESERVE
if va in (None, 0xFFFFFFFFFFFFFFFF):
    fail("reserving VA")
VRAM, PUBLIC, WRITABLE = 1, 1 << 29, 1 << 31
alloc = bytearray(struct.pack("QQQQII", va, size, 0, 0, gpu_id, VRAM | PUBLIC | WRITABLE))
fcntl.ioctl(kfd, ioc(3, 0x16, 40), alloc)
_, _, handle, mmap_offset, _, _ = struct.unpack("QQQQII", alloc)
cpu = libc.mmap(va, size, mmap.PROT_READ | mmap.PROT_WRITE, mmap.MAP_SHARED | 0x10,  # MAP_FIXED
                drm, mmap_offset)
if cpu != va:
    fail(f"mmap of the buffer at {va:#x}: {cpu}")
ctypes.memset(cpu, 0x3C, size)
gid = (ctypes.c_uint32 * 1)(gpu_id)
mp = bytearray(struct.pack("QQII", handle, ctypes.addressof(gid), 1, 0))
fcntl.ioctl(kfd, ioc(3, 0x18, 24), mp)
if struct.unpack("QQII", mp)[3] != 1:
    fail("MAP_MEMORY_TO_GPU")
if ctypes.string_at(cpu + size - 4, 4) != b"\x3c" * 4:
    fail("the buffer's bytes")
fcntl.ioctl(kfd, ioc(3, 0x19, 24), struct.pack("QQII", handle, ctypes.addressof(gid), 1, 0))
if libc.munmap(cpu, size) != 0:
    fail("munmap")
fcntl.ioctl(kfd, ioc(1, 0x17, 8), struct.pack("Q", handle))
try:
    fcntl.ioctl(kfd, ioc(1, 0x17, 8), struct.pack("Q", handle))
    fail("freeing twice succeeded")
except OSError as e:
    if e.errno != 22:
        fail(f"freeing twice: errno {e.errno}, expected EINVAL")
os.close(drm)
os.close(kfd)
print("ctypes: ok")
