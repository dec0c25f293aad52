"""geoopt: Riemannian manifolds (Poincare ball, sphere, Stiefel), their parameters and optimizers."""
import torch

from . import case


@case("poincare_expmap0", grad=True)
def _():
    import geoopt

    ball = geoopt.PoincareBall(c=1.0, learnable=True)
    return ball.expmap0, (torch.randn(5, 4) * 0.1,), {}


@case("poincare_dist")
def _():
    import geoopt

    ball = geoopt.PoincareBall(c=1.0)
    return ball.dist, (ball.expmap0(torch.randn(5, 4) * 0.1), ball.expmap0(torch.randn(5, 4) * 0.1)), {}


@case("poincare_mobius_matvec")
def _():
    import geoopt

    ball = geoopt.PoincareBall(c=1.0)
    return ball.mobius_matvec, (torch.eye(4), ball.expmap0(torch.randn(5, 4) * 0.1)), {}


@case("stereographic_hyperplanes")
def _():
    import geoopt
    from geoopt.layers.stereographic import Distance2StereographicHyperplanes

    layer = Distance2StereographicHyperplanes(4, 3, ball=geoopt.PoincareBall())
    return layer, (torch.randn(5, 4) * 0.1,), {}


@case("sphere_retr")
def _():
    import geoopt

    sphere = geoopt.Sphere()
    x = sphere.projx(torch.randn(5, 4))
    return sphere.retr, (x, sphere.egrad2rgrad(x, torch.randn(5, 4))), {}


@case("stiefel_retr_transp")
def _():
    import geoopt

    m = geoopt.CanonicalStiefel()
    x, u = m.projx(torch.randn(6, 3)), torch.randn(6, 3)
    return m.retr_transp, (x, m.proju(x, u), u), {}


def _opt(name, manifold, **kw):
    import geoopt

    p = geoopt.ManifoldParameter(manifold.random(4, 3), manifold=manifold)
    p.grad = torch.randn(4, 3)
    return getattr(geoopt.optim, name)([p], **kw).step, (), {}


@case("riemannian_adam_step")
def _():
    import geoopt

    return _opt("RiemannianAdam", geoopt.Stiefel(), lr=1e-2, stabilize=1)


@case("riemannian_sgd_step")
def _():
    import geoopt

    return _opt("RiemannianSGD", geoopt.Sphere(), lr=1e-2, momentum=0.9, nesterov=True, dampening=0)


@case("lorentz_expmap0")
def _():
    import geoopt

    lor = geoopt.Lorentz()
    u = torch.cat([torch.zeros(5, 1), torch.randn(5, 3) * 0.1], dim=1)
    return lor.expmap0, (u,), {}
