"""roma: rotation representations and mappings (robotics, pose estimation heads)."""
import torch

from . import case


@case("rotmat_to_rotvec")
def _():
    import roma

    return roma.rotmat_to_rotvec, (roma.random_rotmat(5),), {}


@case("unitquat_to_rotvec")
def _():
    import roma

    return roma.unitquat_to_rotvec, (roma.random_unitquat(5),), {}


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


@case("euler_to_rotmat")
def _():
    import roma

    return roma.euler_to_rotmat, ("xyz", torch.randn(4, 3)), {}


@case("rotmat_to_euler")
def _():
    import roma

    return roma.rotmat_to_euler, ("xyz", roma.random_rotmat(4)), {}


@case("rotmat_geodesic_distance")
def _():
    import roma

    return roma.rotmat_geodesic_distance, (roma.random_rotmat(4), roma.random_rotmat(4)), {}


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
