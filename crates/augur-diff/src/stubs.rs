//! The stubs that replace a dispatched or observed function in the meta program: a meta
//! branch on the path's revision to the version's body, and the observation of the
//! function's results after it returns.

use crate::meta::Version;
use augur_ir::{
    AddrBase, Block, BlockId, Callee, Const, FuncId, Function, Inst, Operand, Program, Reg, Ty,
    TyId,
};

/// The body that replaces a dispatched or observed function.
pub struct Stub {
    /// The function replaced (its id and name stay).
    pub id: FuncId,
    /// The meta site number.
    pub site: u32,
    /// `augur_meta_dispatch`.
    pub dispatch: FuncId,
    /// `augur_diff_observe`, when the function's results are observed.
    pub observe: Option<FuncId>,
    /// The parameters whose pointees are observed (bit i: parameter i).
    pub pointees: u64,
    /// The i32 type.
    pub i32_ty: TyId,
    /// The void type.
    pub void_ty: TyId,
}

impl Stub {
    /// `r = augur_meta_dispatch(site, mask); switch r -> version blocks`, each version block
    /// calling its body, then `augur_diff_observe` if observed, and returning the result.
    pub fn function(&self, meta: &Program, versions: &[Version]) -> Function {
        let orig = meta.func(self.id);
        let np = orig.params.len() as u32;
        let has_ret = !matches!(meta.ty(orig.ret_ty).ty, Ty::Void);
        let (rev_reg, ret_reg) = (Reg(np), Reg(np + 1));
        let mut insts = Vec::new();
        let mut blocks = Vec::new();
        if versions.len() > 1 {
            let mask = versions
                .iter()
                .flat_map(|v| v.revisions.iter())
                .fold(0u128, |m, r| m | 1 << r);
            let cases = versions
                .iter()
                .enumerate()
                .skip(1)
                .flat_map(|(vi, v)| {
                    v.revisions
                        .iter()
                        .map(move |r| (*r as u128, BlockId(vi as u32 + 1)))
                })
                .collect();
            insts.push(Inst::Call {
                dst: Some(rev_reg),
                callee: Callee::Direct(self.dispatch),
                args: vec![imm(32, self.site as u128), imm(64, mask)],
                ret_ty: self.i32_ty,
            });
            insts.push(Inst::Switch {
                val: Operand::Reg(rev_reg),
                cases,
                default: BlockId(1),
            });
            blocks.push(block("meta", 0, 2));
        }
        for (vi, v) in versions.iter().enumerate() {
            let start = insts.len() as u32;
            let args: Vec<Operand> = (0..np).map(|i| Operand::Reg(Reg(i))).collect();
            insts.push(Inst::Call {
                dst: has_ret.then_some(ret_reg),
                callee: Callee::Direct(v.func),
                args: args.clone(),
                ret_ty: orig.ret_ty,
            });
            if let Some(observe) = self.observe {
                let mut oargs = vec![
                    Operand::Const(Box::new(Const::Addr {
                        base: AddrBase::Func(self.id),
                        offset: 0,
                    })),
                    imm(32, has_ret as u128),
                    imm(64, self.pointees as u128),
                ];
                if has_ret {
                    oargs.push(Operand::Reg(ret_reg));
                }
                oargs.extend(args);
                insts.push(Inst::Call {
                    dst: None,
                    callee: Callee::Direct(observe),
                    args: oargs,
                    ret_ty: self.void_ty,
                });
            }
            insts.push(Inst::Ret {
                val: has_ret.then_some(Operand::Reg(ret_reg)),
            });
            blocks.push(block(&format!("version{vi}"), start, insts.len() as u32));
        }
        Function {
            name: orig.name.clone(),
            params: orig.params.clone(),
            ret_ty: orig.ret_ty,
            is_var_arg: false,
            num_regs: np + 2,
            locs: vec![orig.loc; insts.len()],
            insts,
            blocks,
            loc: orig.loc,
        }
    }
}

fn imm(width: u32, value: u128) -> Operand {
    Operand::Imm { width, value }
}

fn block(name: &str, start: u32, end: u32) -> Block {
    Block {
        name: name.into(),
        start,
        end,
    }
}
