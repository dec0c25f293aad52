"""roma: rotation representations and mappings (robotics, pose estimation heads)."""
import torch

from . import case


@case("rotvec_quat_rotmat_roundtrip")
def _():
    import roma

    def roundtrip(rotvec):
        q = roma.rotvec_to_unitquat(rotvec)
        R = roma.unitquat_to_rotmat(q)
        return roma.rotmat_to_rotvec(R), roma.unitquat_to_rotvec(q)

    return roundtrip, (torch.randn(5, 3),), {}


@case("special_procrustes", grad=True)
def _():
    import roma

    return roma.special_procrustes, (torch.randn(4, 3, 3, requires_grad=True),), {}


@case("symmatrixvec_to_unitquat", grad=True)
def _():
    import roma

    return roma.symmatrixvec_to_unitquat, (torch.randn(4, 10, requires_grad=True),), {}


@case("special_gramschmidt")
def _():
    import roma

    return roma.special_gramschmidt, (torch.randn(4, 3, 2),), {}


@case("rigid_points_registration")
def _():
    import roma

    x, y = torch.randn(2, 10, 3), torch.randn(2, 10, 3)
    return roma.rigid_points_registration, (x, y), {"compute_scaling": True}


@case("euler_and_geodesic")
def _():
    import roma

    def f(angles, R2):
        R1 = roma.euler_to_rotmat("xyz", angles)
        return roma.rotmat_geodesic_distance(R1, R2), roma.rotmat_to_euler("xyz", R1)

    return f, (torch.randn(4, 3), roma.random_rotmat(4)), {}


@case("unitquat_slerp")
def _():
    import roma

    q0, q1 = roma.random_unitquat(3), roma.random_unitquat(3)
    return roma.unitquat_slerp, (q0, q1, torch.linspace(0, 1, 5)), {}


@case("rigid_transform_compose")
def _():
    import roma

    def compose(R1, t1, R2, t2, pts):
        T = roma.Rigid(R1, t1) @ roma.Rigid(R2, t2)
        return T.inverse().apply(pts)

    rot = roma.random_rotmat(2)
    return compose, (rot, torch.randn(2, 3), roma.random_rotmat(2), torch.randn(2, 3), torch.randn(2, 3)), {}
